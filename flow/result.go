package flow

// Result is a CMMF allocation with the structure that proves it fair.
type Result struct {
	// Integral is true when every allocation is a whole number of machines.
	Integral bool
	// Amount is x_u, the machines of user u; Level is x_u/w_u.
	Amount []Rat
	Level  []Rat
	// Round is the 1-based progressive-filling round in which u stopped
	// growing (levels of later rounds are strictly higher); 0 for users
	// with no eligible machine or a zero demand.
	Round []int
	// Capped marks users stopped by their own demand.
	Capped []bool
	// Alloc[u][k] is u's share of type p.Users[u].Types[k].
	Alloc [][]Rat
	// Pieces are the tight sets in increasing level order (see Piece).
	Pieces []Piece
	// Rounds is the number of distinct levels; MaxFlows the max-flow
	// computations the solver ran.
	Rounds   int
	MaxFlows int
}

// Piece is one step of the principal partition: the users that stopped
// together at Level, and the machine types they exhaust. Users of a tight
// piece use only types of pieces up to their own, and its Types are fully
// allocated; that is the certificate of max-min optimality (ALGORITHMS.md
// §5.3). A Capped piece holds users stopped by their demands at Level and
// owns no types.
type Piece struct {
	Round  int
	Level  Rat
	Users  []int
	Types  []int
	Capped bool
}

func newResult(p *Problem) *Result {
	n := len(p.Users)
	r := &Result{
		Amount: make([]Rat, n),
		Level:  make([]Rat, n),
		Round:  make([]int, n),
		Capped: make([]bool, n),
		Alloc:  make([][]Rat, n),
	}
	for u := range p.Users {
		r.Amount[u] = Int(0)
		r.Level[u] = Int(0)
		r.Alloc[u] = make([]Rat, len(p.Users[u].Types))
		for k := range r.Alloc[u] {
			r.Alloc[u][k] = Int(0)
		}
	}
	return r
}
