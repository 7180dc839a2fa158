// Package export turns capplan plan documents into artefacts: the files
// runtime schedulers load (YARN: fair-scheduler.xml, capacity-scheduler.xml
// and node label commands; Kubernetes: Namespaces, ResourceQuotas,
// PriorityClasses, node labels, taints and toleration snippets; Kueue:
// ResourceFlavors, ClusterQueues and LocalQueues), the jobs that run a
// sharded capplan command on a batch system (a Kubernetes Indexed Job and
// its merge Job; a Slurm job array, its merge and a submit script, from a
// ShardedRun) and, through Report, the
// report files of a bundle (report.html, report.xlsx, figures/*.svg, drawn
// by package reports); BundleFiles renders a whole plan bundle (documents,
// exports, reports, plan.json).
//
// Every exporter is a pure function from documents to files (path and
// bytes): byte-identical for identical documents, with quantities rounded
// by one stated rule (largest remainder, see apportion) so that quotas add
// up exactly to the plan. WriteDir writes the files atomically.
//
// It may import plan (the documents), datasets (the demand's eligibility
// and sharing policies), reports (rendering and atomic writes) and the
// upstream API types (k8s.io/api, sigs.k8s.io/kueue/apis/kueue/v1beta1,
// sigs.k8s.io/yaml). It runs no solver and reads no file.
package export
