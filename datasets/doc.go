// Package datasets is capplan's input layer: the capplan/v1 input model
// (Cluster inventories, Demand forecasts, DAG Workloads and simulator
// Sweeps), its loaders
// (capplan YAML or JSON, `kubectl get nodes -o json` node lists, the
// Alibaba GPU trace openb), the cross-checks between inputs, the
// coalescing of nodes into machine types, seeded synthetic generators, and
// embedded example inputs. The DAG readers that build the dag model (PSPLIB,
// Alibaba v2018 batch_task, workload expansion) are in datasets/dags.
//
// Loaders never stop at the first mistake: they return an *inputerr.Error
// listing every problem found, each with its file and field path, and they
// never panic, whatever the input. Quantities are parsed with
// k8s.io/apimachinery/pkg/api/resource and kept exact (whole thousandths of
// a base unit); label selectors use Kubernetes selector syntax.
//
// It may import apimachinery, the YAML libraries and the internal
// helpers (inputerr, atomicfile); no algorithm package, no document package
// and no view.
package datasets
