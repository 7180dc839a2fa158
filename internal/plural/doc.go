// Package plural is the one home of counted nouns in user output: "1 pod",
// "2 pods", "1 policy", "3 policies". Every message, table title and
// summary line that counts something goes through it, so that no output
// says "1 nodes".
//
// It imports only the standard library.
package plural
