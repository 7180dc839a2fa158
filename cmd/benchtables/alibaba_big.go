package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
)

// writeAlibabaCopies writes a production-size batch_task file of rows task
// rows to path: copies of the rows of the sample src (without its header),
// copy k (from 0) with every job renamed NAME-cK (k > 0) and every time
// shifted by k times the sample's span, so that the copies are distinct
// jobs at later times; the last copy is cut at rows. The file is built in
// a temporary directory by the bench and never committed.
func writeAlibabaCopies(src, path string, rows int) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	r := csv.NewReader(in)
	r.FieldsPerRecord = -1
	var recs [][]string
	lo, hi := math.MaxInt64, math.MinInt64
	for {
		rec, err := r.Read()
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("%s: %w", src, err)
		}
		if len(recs) == 0 && len(rec) > 0 && rec[0] == "task_name" {
			continue
		}
		if len(rec) == 9 {
			for _, c := range []int{5, 6} {
				if v, err := strconv.Atoi(rec[c]); err == nil {
					lo, hi = min(lo, v), max(hi, v)
				}
			}
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return fmt.Errorf("%s: no rows", src)
	}
	span := hi - lo + 1
	out, err := os.Create(path)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(out, 1<<20)
	w := csv.NewWriter(bw)
	row := make([]string, 9)
	for n := 0; n < rows; n++ {
		k, rec := n/len(recs), recs[n%len(recs)]
		copy(row, rec)
		if k > 0 && len(rec) == 9 {
			row[2] = rec[2] + "-c" + strconv.Itoa(k)
			for _, c := range []int{5, 6} {
				if v, err := strconv.Atoi(rec[c]); err == nil {
					row[c] = strconv.Itoa(v + k*span)
				}
			}
		}
		if err := w.Write(row[:len(rec)]); err != nil {
			out.Close()
			return err
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		out.Close()
		return err
	}
	if err := bw.Flush(); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}
