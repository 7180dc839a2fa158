package workloads

import (
	"bytes"
	"testing"

	"github.com/capplan/capplan/sim"
)

// FuzzReadAlibaba: any input is read without a panic, and whatever jobs
// come out are well-formed for the simulator (or rejected by it with a
// reason).
func FuzzReadAlibaba(f *testing.F) {
	f.Add([]byte("M1,2,j_1,1,Terminated,100,110,50,0.3\nR2_1,1,j_1,1,Terminated,110,130,100,0.5\n"))
	f.Add([]byte("task_name,instance_num,job_name,task_type,status,start_time,end_time,plan_cpu,plan_mem\nJ3_3,1,j,1,T,1,2,3,4\n"))
	f.Add([]byte("M1,1e9,j,1,T,0,1,1,1\nM2_1_1_1,1,j,1,T,5,1,1,1\n\"unterminated"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rows, err := ReadAlibaba("fuzz", bytes.NewReader(data))
		if err != nil {
			return
		}
		q := rows.Quanta()
		conv := &sim.DAGConversion{Resources: AlibabaResources, Quanta: q, TickSeconds: 1}
		jobs := rows.Jobs(conv, 1)
		c := Uniform(AlibabaResources, q, []float64{96, 100}, 2, "m")
		if _, err := sim.Admit(sim.Config{Cluster: c, Users: AlibabaUserList()}, jobs); err != nil {
			t.Fatal(err)
		}
	})
}
