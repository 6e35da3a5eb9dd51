#!/usr/bin/env python3
"""Makes the report screenshots shown in the docs (docs/img/), from real oomkit output:
  report-timeline-all.png    the memory-over-time chart of a training run, zoomed out (envelope)
  report-timeline-zoom.png   the same chart zoomed in to a few steps (phase saw-tooth)
  report-step.png            one step phase by phase (the step picker's view)
  report-estimate-llama-2-7b.png  the estimate page of `oomkit estimate --model llama-2-7b
                             --gpu a100-sxm4-80gb --json`: verdict, headroom, fixes, phases
Usage: docs_screenshots.py --oomkit build/oomkit --run RUN_DIR [--out docs/img] [--zoom A:B]
RUN_DIR is a run directory of `oomkit train` (scripts/docs-screenshots.sh runs the default
400-step `oomkit train` for it). Uses chromedriver + headless Chromium as browser_test.py does
and fails on any console error."""
import argparse, base64, json, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402

RECT_JS = """
const e = document.querySelector(arguments[0]);
if (!e) return null;
const s = e.closest('section') || e;
const r = s.getBoundingClientRect();
return {x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height};
"""


def shot(wd, selector, path, scale=1.0):
    r = wd.js(RECT_JS, selector)
    if not r:
        raise bt.Fail("%s: no element %s" % (path, selector))
    png = wd.s("POST", "/goog/cdp/execute", {"cmd": "Page.captureScreenshot", "params": {
        "format": "png", "captureBeyondViewport": True,
        "clip": {"x": r["x"], "y": r["y"], "width": r["width"], "height": r["height"], "scale": scale}}})
    with open(path, "wb") as f:
        f.write(base64.b64decode(png["data"]))
    print("%s: %d bytes" % (path, os.path.getsize(path)))


def open_page(wd, path):
    wd.s("POST", "/url", {"url": "file://" + os.path.abspath(path)})
    for _ in range(300):
        if wd.js("return document.body && document.body.getAttribute('data-ready');"):
            break
        time.sleep(0.1)
    ready = wd.js("return document.body.getAttribute('data-ready');")
    errors = [e for e in wd.console() if e.get("level") in ("SEVERE", "ERROR")]
    if ready != "1" or errors:
        raise bt.Fail("%s: ready=%r, console errors: %s" % (path, ready, json.dumps(errors)[:800]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomkit", required=True)
    ap.add_argument("--run", required=True)
    ap.add_argument("--out", default="docs/img")
    ap.add_argument("--zoom", default="200:203", help="steps shown zoomed in, A:B (B excluded)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="oomkit_docs_shots_")
    run_html = bt.run_oomkit(a.oomkit, ["report", a.run, "-o", os.path.join(work, "run.html")])
    est_json = os.path.join(work, "llama-2-7b.json")
    with open(est_json, "w") as f:
        f.write(bt.run_oomkit(a.oomkit, ["estimate", "--model", "llama-2-7b", "--gpu", "a100-sxm4-80gb", "--json"]))
    est_html = bt.run_oomkit(a.oomkit, ["report", est_json, "-o", os.path.join(work, "estimate.html")])
    port = bt.free_port()
    proc = subprocess.Popen([bt.find(["chromedriver"]), "--port=%d" % port], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wd = bt.WebDriver(port)
    try:
        bt.wait_for_driver(wd)
        wd.start(bt.find(["chromium", "chromium-browser", "google-chrome"]), os.path.join(work, "profile"))
        wd.s("POST", "/window/rect", {"width": 1180, "height": 1000})
        open_page(wd, run_html)
        if wd.js("return document.querySelector('.tl-status').getAttribute('data-mode');") != "envelope":
            raise bt.Fail("the zoomed-out timeline is not drawn as an envelope")
        shot(wd, "#chart-timeline", os.path.join(a.out, "report-timeline-all.png"))
        z0, z1 = (float(v) for v in a.zoom.split(":"))
        wd.js("window.oomkitTimeline.setView(arguments[0], arguments[1]);", z0, z1)
        if wd.js("return document.querySelector('.tl-status').getAttribute('data-mode');") != "marks":
            raise bt.Fail("zoomed in to %s the timeline does not show the phase marks" % a.zoom)
        shot(wd, "#chart-timeline", os.path.join(a.out, "report-timeline-zoom.png"))
        shot(wd, "#step-picker", os.path.join(a.out, "report-step.png"))
        open_page(wd, est_html)
        shot(wd, ".cards", os.path.join(a.out, "report-estimate-llama-2-7b-cards.png"))
        shot(wd, "#chart-fixes", os.path.join(a.out, "report-estimate-llama-2-7b-fixes.png"))
        shot(wd, "#chart-step", os.path.join(a.out, "report-estimate-llama-2-7b-phases.png"))
        wd.call("DELETE", "/session/" + wd.sid)
        return 0
    except bt.Fail as e:
        print("FAIL:", e)
        return 1
    finally:
        proc.terminate()
        proc.wait(timeout=10)


if __name__ == "__main__":
    sys.exit(main())
