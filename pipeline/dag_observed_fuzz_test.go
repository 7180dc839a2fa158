package pipeline

import (
	"strings"
	"testing"
)

// FuzzReadDAGObserved: a schedule file (`capplan dag check --schedule`,
// JSON or CSV) of any bytes gives jobs or an error naming the file, never
// a panic; every task read has finite times.
func FuzzReadDAGObserved(f *testing.F) {
	f.Add("s.csv", []byte("job,task,start,end,machine\nj,a[0],0,1,0\nj,a[1],1,2,machine-1\n"))
	f.Add("s.csv", []byte("\ufefftask,start,end,machine\nt,0,1e308,0\n\"broken"))
	f.Add("s.json", []byte(`{"jobs": [{"name": "j", "tasks": [{"id": "a", "start": 0, "end": 1, "machine": 0}]}]}`))
	f.Add("s.json", []byte(`{"tasks": [{"id": 7, "start": 0, "end": 1, "machine": "m-0"}]}`))
	f.Fuzz(func(t *testing.T, name string, data []byte) {
		if !strings.HasSuffix(name, ".json") && !strings.HasSuffix(name, ".csv") {
			name += ".csv"
		}
		ob, err := readDAGObserved(name, data)
		if err != nil {
			if !strings.Contains(err.Error(), name) {
				t.Fatalf("error does not name %s: %v", name, err)
			}
			return
		}
		for _, j := range ob.jobs {
			for _, tk := range j.tasks {
				if tk.start != tk.start || tk.end != tk.end || tk.start > 1e308 || tk.end > 1e308 || tk.start < -1e308 || tk.end < -1e308 {
					t.Fatalf("task %q with times %v, %v", tk.id, tk.start, tk.end)
				}
			}
		}
	})
}
