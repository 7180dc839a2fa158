package plan

// Search records the limits a heuristic search ran under: its
// deterministic work budget, the work it used, and the opt-in wall-clock
// limit with whether that limit cut the search. A document whose search was
// cut by its time limit depends on the speed of the machine that made it;
// every other document is reproducible from its inputs, flags and seed.
type Search struct {
	// WorkUnit names what WorkBudget and WorkUsed count, such as "dp
	// states per step" (X-Size PTAS), "improve visits per probe"
	// (X-Select) or "schedules" (DAG best).
	WorkUnit string `json:"workUnit"`
	// WorkBudget is the budget asked for; 0 means the method's default.
	WorkBudget int64 `json:"workBudget"`
	// WorkUsed is the work spent, when the method counts it.
	WorkUsed int64 `json:"workUsed,omitempty"`
	// TimeLimit is the wall-clock limit in seconds (0: none).
	TimeLimit float64 `json:"timeLimit,omitempty"`
	// CutByTimeLimit is true when the time limit ended the search before
	// its work budget or its own stopping rule did.
	CutByTimeLimit bool `json:"cutByTimeLimit"`
}
