package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/capplan/capplan/pipeline/pipelinetest"
)

// chromiumFlags run a headless Chromium that touches no network and no
// profile of the user's.
func chromiumFlags(profile string) []string {
	return []string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync",
		"--hide-scrollbars", "--force-device-scale-factor=1", "--user-data-dir=" + profile,
	}
}

// probeScript records, for the layout test, the page height and the box
// of every figure in page coordinates. It runs only in the test's copy of
// the page (the report itself has no script).
const probeScript = `<script>
var out = {height: document.documentElement.scrollHeight, figures: []};
document.querySelectorAll("figure.figure").forEach(function (f) {
  var r = f.querySelector("svg").getBoundingClientRect();
  out.figures.push({id: f.id, x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height});
});
document.body.setAttribute("data-probe", JSON.stringify(out));
</script>`

type probe struct {
	Height  int `json:"height"`
	Figures []struct {
		ID         string
		X, Y, W, H float64
	} `json:"figures"`
}

var probeRE = regexp.MustCompile(`data-probe="([^"]*)"`)

// runProbe loads the probe copy of the page at the given window size and
// returns what the script recorded.
func runProbe(t *testing.T, chromium, dir, page string, height int) probe {
	t.Helper()
	args := append(chromiumFlags(filepath.Join(dir, "profile-probe")), fmt.Sprintf("--window-size=1280,%d", height), "--dump-dom", "file://"+page)
	out, err := exec.Command(chromium, args...).Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v", err)
	}
	m := probeRE.FindSubmatch(out)
	if m == nil {
		t.Fatalf("the probe script left no result: %.500s", out)
	}
	var p probe
	raw := strings.ReplaceAll(string(m[1]), "&quot;", `"`)
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		t.Fatalf("probe result %q: %v", raw, err)
	}
	return p
}

// TestHTMLReportInChromium opens the report in a real headless Chromium:
// the page parses whole, the console shows no error (the page's CSP would
// report any fetch or script), and every figure is drawn: its region of a
// full-page screenshot is not blank.
func TestHTMLReportInChromium(t *testing.T) {
	chromium := pipelinetest.NeedCommand(t, "chromium", "apt-get install -y chromium")
	b := exampleBundle(t)
	figs, err := Figures(b)
	if err != nil {
		t.Fatal(err)
	}
	html, err := HTMLReport(b, HTMLOptions{Figures: figs})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	page := filepath.Join(dir, "report.html")
	if err := os.WriteFile(page, html, 0o644); err != nil {
		t.Fatal(err)
	}
	// The probe copy drops the CSP (which blocks scripts) and adds the
	// script; nothing else changes, so the layout is the same.
	probeHTML := regexp.MustCompile(`<meta http-equiv="Content-Security-Policy"[^>]*>`).ReplaceAll(html, nil)
	probeHTML = bytes.Replace(probeHTML, []byte("</body>"), []byte(probeScript+"</body>"), 1)
	probePage := filepath.Join(dir, "probe.html")
	if err := os.WriteFile(probePage, probeHTML, 0o644); err != nil {
		t.Fatal(err)
	}
	height := runProbe(t, chromium, dir, probePage, 1000).Height
	p := runProbe(t, chromium, dir, probePage, height)
	if len(p.Figures) != len(figs) {
		t.Fatalf("the page shows %d figures, the report has %d", len(p.Figures), len(figs))
	}

	// The report itself: parsed whole, and no console errors.
	args := append(chromiumFlags(filepath.Join(dir, "profile-dom")), "--window-size=1280,1000", "--enable-logging=stderr", "--v=0", "--dump-dom", "file://"+page)
	var stderr bytes.Buffer
	cmd := exec.Command(chromium, args...)
	cmd.Stderr = &stderr
	dom, err := cmd.Output()
	if err != nil {
		t.Fatalf("chromium --dump-dom: %v\n%s", err, stderr.String())
	}
	if !bytes.Contains(dom, []byte(`id="reproduce"`)) || bytes.Count(dom, []byte("<figure")) != len(figs) {
		t.Errorf("the parsed page lacks its last section or figures")
	}
	for _, bad := range []string{"Uncaught", "ERROR:CONSOLE", "Content Security Policy", "Refused to", "net::ERR"} {
		if strings.Contains(stderr.String(), bad) {
			t.Errorf("console reports %q:\n%s", bad, stderr.String())
		}
	}

	// A full-page screenshot; every figure region must be drawn.
	shot := filepath.Join(dir, "report.png")
	args = append(chromiumFlags(filepath.Join(dir, "profile-shot")), fmt.Sprintf("--window-size=1280,%d", height), "--screenshot="+shot, "file://"+page)
	if out, err := exec.Command(chromium, args...).CombinedOutput(); err != nil {
		t.Fatalf("chromium --screenshot: %v\n%s", err, out)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if img.Bounds().Dy() < height {
		t.Fatalf("screenshot is %d pixels high, the page %d", img.Bounds().Dy(), height)
	}
	for _, fig := range p.Figures {
		r := image.Rect(int(fig.X), int(fig.Y), int(fig.X+fig.W), int(fig.Y+fig.H))
		if r.Dx() < 100 || r.Dy() < 100 {
			t.Errorf("figure %s is only %v pixels", fig.ID, r.Size())
			continue
		}
		if ink, colours := inkIn(img, r); ink < 0.01 || colours < 3 {
			t.Errorf("figure %s looks blank: %.2f%% of %v non-white, %d colours", fig.ID, 100*ink, r, colours)
		}
	}
}

// inkIn returns the fraction of pixels of r that are not white and the
// number of distinct colours among them (up to 64).
func inkIn(img image.Image, r image.Rectangle) (float64, int) {
	r = r.Intersect(img.Bounds())
	var ink, total int
	colours := map[[3]uint32]bool{}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			total++
			if cr>>8 < 245 || cg>>8 < 245 || cb>>8 < 245 {
				ink++
				if len(colours) < 64 {
					colours[[3]uint32{cr >> 8, cg >> 8, cb >> 8}] = true
				}
			}
		}
	}
	if total == 0 {
		return 0, 0
	}
	return float64(ink) / float64(total), len(colours)
}
