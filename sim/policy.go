package sim

// Policy is an online scheduler (SIMULATE.md §1.6). Round is called once
// per distinct timestamp at which something changed (a job arrived, a task
// ended or was killed) or a timer set with Planner.WakeAt fired, after
// every event of that time has been applied. It reads the State and acts
// through the Planner, whose calls take effect at once.
type Policy interface {
	Name() string
	Round(s *State, p *Planner)
}

// Traits is what a policy declares to the core before the run.
type Traits struct {
	// Intra orders the tasks inside each job's runnable groups.
	Intra Intra
	// WorkConserving policies leave, after every Round, no runnable task
	// that fits an eligible machine; Config.Check asserts it
	// (SIMULATE.md §7.1.5).
	WorkConserving bool
}

// TraitsPolicy is implemented by policies that declare Traits; others get
// the zero Traits (IntraBFS, not work-conserving).
type TraitsPolicy interface {
	Traits() Traits
}

// RankPolicy is implemented by policies that give each arriving job
// without a Rank a preferred order (such as Graphene's, SIMULATE.md §3.4):
// JobRank is called at the arrival, with the job's estimates, before the
// intra order is set, and returns one rank per task (smaller first), or
// nil to keep the job as it is. The job must not be modified.
type RankPolicy interface {
	JobRank(s *State, j *Job) []int32
}

// StatsPolicy is implemented by policies that count their own work (such
// as Carbyne's cache hits); Result.PolicyStats holds the counts at the end
// of the run.
type StatsPolicy interface {
	PolicyStats() map[string]int64
}

// EndKind says how a task's run ended.
type EndKind uint8

const (
	// EndFinished: the task completed.
	EndFinished EndKind = iota
	// EndKilled: preempted; its progress is lost and it is runnable again.
	EndKilled
	// EndSuspended: its progress is kept and it is runnable again.
	EndSuspended
	// EndMigrated: it left its machine for another one; TaskStarted
	// follows for the new machine, with the same end time.
	EndMigrated
)

var endKindNames = []string{"finished", "killed", "suspended", "migrated"}

func (k EndKind) String() string { return endKindNames[k] }

// Observer is told what happens, after the event took effect. A Policy
// that implements Observer is told first, then Config.Observers in order.
// Observers must not keep the State past the call.
type Observer interface {
	JobArrived(s *State, j JobID)
	JobFinished(s *State, j JobID)
	TaskStarted(s *State, t TaskRef, m MachineID)
	TaskEnded(s *State, t TaskRef, m MachineID, k EndKind)
}

// RoundObserver is implemented by observers (Config.Observers) that also
// want the state once per Round, after the policy acted. Every change of
// the state is followed by a Round at the same time, so the state seen
// here holds until the next RoundDone: sampling it gives exact step
// functions (such as how much each user holds while it has runnable tasks
// waiting). It must not keep the State past the call.
type RoundObserver interface {
	RoundDone(s *State)
}

// NopObserver implements Observer with no-ops; embed it to implement
// only some methods.
type NopObserver struct{}

func (NopObserver) JobArrived(*State, JobID)                      {}
func (NopObserver) JobFinished(*State, JobID)                     {}
func (NopObserver) TaskStarted(*State, TaskRef, MachineID)        {}
func (NopObserver) TaskEnded(*State, TaskRef, MachineID, EndKind) {}
