package plural

import (
	"strconv"
	"strings"
)

// Count returns n followed by noun, in the plural unless n is 1:
// Count(1, "pod") is "1 pod", Count(0, "pod") "0 pods". The plural
// follows the regular English rules of Noun.
func Count[N ~int | ~int64](n N, noun string) string {
	return strconv.FormatInt(int64(n), 10) + " " + Noun(n, noun)
}

// Noun returns noun unchanged when n is 1, else its regular English
// plural: -s; -es after s, x, z, ch and sh ("process" → "processes");
// -ies for a consonant followed by y ("policy" → "policies"). For an
// irregular noun, call With.
func Noun[N ~int | ~int64](n N, noun string) string {
	if n == 1 {
		return noun
	}
	return Of(noun)
}

// With returns n followed by one or many: With(2, "child", "children").
func With[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return strconv.FormatInt(int64(n), 10) + " " + one
	}
	return strconv.FormatInt(int64(n), 10) + " " + many
}

// Of returns the regular English plural of a noun (see Noun). A noun
// written as several words is pluralised on its last word ("machine type"
// → "machine types").
func Of(noun string) string {
	lower := strings.ToLower(noun)
	switch {
	case noun == "":
		return noun
	case strings.HasSuffix(lower, "s"), strings.HasSuffix(lower, "x"), strings.HasSuffix(lower, "z"),
		strings.HasSuffix(lower, "ch"), strings.HasSuffix(lower, "sh"):
		return noun + "es"
	case len(lower) > 1 && lower[len(lower)-1] == 'y' && !strings.ContainsRune("aeiou", rune(lower[len(lower)-2])):
		return noun[:len(noun)-1] + "ies"
	}
	return noun + "s"
}

// Verb returns one when n is 1, else many, for a verb agreeing with a
// counted subject: Count(n, "input") + " " + Verb(n, "matches", "match").
func Verb[N ~int | ~int64](n N, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
