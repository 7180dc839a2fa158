package reports

import "html/template"

// htmlTemplate is the report page. The Content-Security-Policy forbids
// every fetch and every script: the page is whole in one file.
var htmlTemplate = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{{.Generator}}">
<title>capplan plan report</title>
<style>
:root { --ink: #1f2328; --muted: #59636e; --line: #d1d9e0; --head: #eef3fb; --warn: #b42318; --warnbg: #fef3f2; --ok: #067647; }
* { box-sizing: border-box; }
body { margin: 0 auto; max-width: 1100px; padding: 24px; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", sans-serif; color: var(--ink); background: #fff; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 21px; margin: 36px 0 8px; padding-bottom: 4px; border-bottom: 2px solid var(--line); }
h3 { font-size: 16px; margin: 20px 0 6px; }
p.meta, p.note, figcaption, .muted { color: var(--muted); }
nav ul { list-style: none; padding: 0; display: flex; flex-wrap: wrap; gap: 6px 18px; }
nav a { color: #0550ae; text-decoration: none; }
table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: var(--head); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.scroll { overflow-x: auto; }
section.warnings { border: 2px solid var(--warn); background: var(--warnbg); border-radius: 6px; padding: 4px 16px 8px; margin-top: 24px; }
section.warnings h2 { color: var(--warn); border: none; margin-top: 12px; }
section.ok { border: 1px solid var(--ok); border-radius: 6px; padding: 4px 16px; margin-top: 24px; color: var(--ok); }
figure { margin: 16px 0; padding: 8px; border: 1px solid var(--line); border-radius: 6px; background: #fff; }
figure svg { display: block; width: 100%; max-width: 960px; height: auto; }
ul.evidence li { margin: 4px 0; }
pre { background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; padding: 12px; overflow-x: auto; }
</style>
</head>
<body>
<header>
<h1>Capacity plan</h1>
<p class="meta">Made by {{.Generator}} from {{range $i, $in := .Inputs}}{{if $i}}, {{end}}{{$in.Role}} <code>{{$in.Path}}</code> (sha256 <code>{{printf "%.12s" $in.SHA256}}…</code>){{end}}.</p>
</header>
<nav><ul>
<li><a href="#summary">Summary</a></li>
<li><a href="#warnings">Warnings ({{len .Warnings}})</a></li>
{{range .Steps}}<li><a href="#{{.ID}}">{{.Table.Title}}</a></li>
{{end}}<li><a href="#evidence">Evidence</a></li>
<li><a href="#reproduce">Reproduce</a></li>
</ul></nav>
{{if .Warnings}}<section class="warnings" id="warnings">
<h2>Warnings</h2>
<p>The plan below holds the feasible part; each of these needs attention.</p>
<ul>{{range .Warnings}}<li>{{.}}</li>{{end}}</ul>
</section>
{{else}}<section class="ok" id="warnings"><p>No warnings: every step of the plan was solved.</p></section>
{{end}}<section id="summary">
<h2>Summary</h2>
{{template "table" .Summary}}
</section>
{{range .Steps}}<section id="{{.ID}}">
<h2>{{.Table.Title}}</h2>
{{if .Table.Note}}<p class="note">{{.Table.Note}}</p>{{end}}
{{range .Figures}}<figure class="figure" id="{{.ID}}">
{{.SVG}}
<figcaption><strong>{{.Title}}.</strong> {{.Caption}}</figcaption>
</figure>
{{end}}{{template "table" .Table}}
</section>
{{end}}<section id="evidence">
<h2>Evidence</h2>
<p class="note">Why each result can be trusted: certificates and gaps to proven bounds.</p>
<ul class="evidence">{{range .Evidence}}<li>{{.}}</li>{{end}}</ul>
</section>
<section id="reproduce">
<h2>Reproduce</h2>
<p class="note">This command, on the same inputs (the digests above), writes the same bundle byte for byte.</p>
<pre><code>{{.Command}}</code></pre>
</section>
</body>
</html>
{{define "table"}}<div class="scroll"><table>
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{$num := .Numeric}}{{range .Rows}}<tr>{{range $j, $c := .}}<td{{if index $num $j}} class="num"{{end}}>{{$c}}</td>{{end}}</tr>
{{end}}</tbody>
</table></div>
{{if .Hidden}}<p class="muted">… and {{.Hidden}} more rows: report.xlsx holds them all.</p>{{end}}{{end}}
`))
