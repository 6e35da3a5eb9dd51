#!/usr/bin/env python3
"""Browser test of `oomkit report` (issue 6): opens each report in headless Chromium through
chromedriver (W3C WebDriver over HTTP on 127.0.0.1, Python standard library only, no network),
fails on any console error, checks that the charts exist with the expected number of points
(counted here from the input files, independently of the report code), and saves full-page
screenshots under the build folder.

Usage: browser_test.py --oomkit BUILD/oomkit --data tests/data/report --out BUILD/browser
Exit 0 pass, 1 fail, 77 skip (no chromium / chromedriver). Every wait has a timeout and the
whole test is killed by SIGALRM after --timeout seconds, so it cannot hang.
"""
import argparse, base64, json, os, shutil, signal, socket, subprocess, sys, tempfile, time, urllib.request

SKIP = 77


class Fail(Exception):
    pass


def find(names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class WebDriver:
    def __init__(self, port):
        self.base = "http://127.0.0.1:%d" % port
        self.sid = None

    def call(self, method, path, body=None, timeout=30):
        data = json.dumps(body).encode() if body is not None else None
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=timeout) as r:
                return json.loads(r.read().decode() or "{}").get("value")
        except urllib.error.HTTPError as e:
            raise Fail("%s %s -> HTTP %d: %s" % (method, path, e.code, e.read().decode()[:500]))

    def s(self, method, path, body=None, timeout=30):
        return self.call(method, "/session/%s%s" % (self.sid, path), body, timeout)

    def start(self, chromium, profile_dir):
        caps = {"capabilities": {"alwaysMatch": {
            "browserName": "chrome",
            "goog:loggingPrefs": {"browser": "ALL"},
            "goog:chromeOptions": {"binary": chromium, "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--hide-scrollbars", "--window-size=1280,900", "--user-data-dir=" + profile_dir,
                "--no-first-run", "--no-default-browser-check", "--disable-extensions",
                "--force-device-scale-factor=1"]}}}}
        self.sid = self.call("POST", "/session", caps, timeout=60)["sessionId"]

    def js(self, script, *args):
        return self.s("POST", "/execute/sync", {"script": script, "args": list(args)})

    def console(self):
        return self.s("POST", "/se/log", {"type": "browser"}) or []


def run_oomkit(exe, args):
    r = subprocess.run([exe] + args, capture_output=True, text=True, timeout=60)
    if r.returncode != 0:
        raise Fail("oomkit %s failed (%d): %s" % (" ".join(args), r.returncode, r.stderr))
    return r.stdout.strip()


def read_jsonl(path):
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def expected_zoom_marks(records):
    """The marks of the step the report zooms into: the OOM step if any, else the complete step
    with the highest peak (max of allocated and peak-in-interval over its marks)."""
    marks = [r for r in records if r["type"] == "mark"]
    ooms = [r["step"] for r in records if r["type"] == "event" and r["name"] == "oom"]
    if ooms:
        step = ooms[0]
    else:
        complete = {r["step"] for r in records if r["type"] == "step"}
        peak = {}
        for m in marks:
            if m["step"] in complete:
                peak[m["step"]] = max(peak.get(m["step"], -1), m["allocated_bytes"], m["peak_allocated_bytes"])
        step = min(peak, key=lambda s: (-peak[s], s))
    return sum(1 for m in marks if m["step"] == step)


COUNT_JS = """
const q = s => document.querySelectorAll(s).length;
return {ready: document.body.getAttribute('data-ready'), title: document.title,
  timeline: q('#chart-timeline'), allocated: q('#chart-timeline .pt-allocated'), peaks: q('#chart-timeline .pt-peak'),
  phase_bars: q('#chart-step .bar-phase'), estimated: q('#chart-categories .bar-estimated'),
  measured: q('#chart-categories .bar-measured'), oom: q('#chart-timeline .oom-marker'),
  limit: q('#chart-timeline .limit-line'), sweep: q('#chart-sweep .pt-sweep'), batch: q('#chart-batch .pt-batch'),
  capacity: q('#chart-batch .capacity-line'), usable: q('#chart-batch .usable-line'), findings: q('.finding'),
  phase_capacity: q('#chart-step .capacity-line'), phase_usable: q('#chart-step .usable-line'),
  fix_bars: q('#chart-fixes .bar-fix'), fix_lines: q('#chart-fixes .capacity-line') + q('#chart-fixes .usable-line'),
  env_n: Number((document.querySelector('#chart-timeline .env-peak') || {getAttribute: () => 0}).getAttribute('data-n')),
  mode: (document.querySelector('.tl-status') || {getAttribute: () => null}).getAttribute('data-mode'),
  recovered_lines: q('#chart-timeline .estimate-line.recovered'),
  cards: [...document.querySelectorAll('.card')].map(c => c.innerText.replace(/\\s+/g, ' ')),
  bold: [...document.querySelectorAll('b')].filter(b => b.textContent === 'not bold').length,
  text: document.body.innerText,
  embedded: JSON.parse(document.getElementById('oomkit-data').textContent).timeline.marks.length,
  embedded_max_peak: Math.max(0, ...JSON.parse(document.getElementById('oomkit-data').textContent)
      .timeline.marks.map(m => m.peak_allocated_bytes)),
  axis_labels: [...document.querySelectorAll('svg.chart .axis-label')].map(t => t.textContent)};
"""

HOVER_JS = """
const p = document.querySelector(arguments[0]);
if (!p) return null;
const r = p.getBoundingClientRect();
p.dispatchEvent(new MouseEvent('mouseover', {bubbles: true, clientX: r.x + 1, clientY: r.y + 1}));
const t = document.getElementById('tooltip');
return t.hidden ? '' : t.textContent;
"""


def open_report(wd, path, shot, timeout_s=20):
    wd.s("POST", "/url", {"url": "file://" + os.path.abspath(path)})
    deadline = time.time() + timeout_s
    while True:
        ready = wd.js("return document.body && document.body.getAttribute('data-ready');")
        if ready:
            break
        if time.time() > deadline:
            raise Fail("%s: page not drawn within %ds" % (path, timeout_s))
        time.sleep(0.1)
    errors = [e for e in wd.console() if e.get("level") in ("SEVERE", "ERROR")]
    if errors:
        raise Fail("%s: console errors: %s" % (path, json.dumps(errors)[:1000]))
    counts = wd.js(COUNT_JS)
    if counts["ready"] != "1":
        raise Fail("%s: the page reported a drawing error: %s" % (path, counts["text"][:500]))
    height = wd.js("return Math.ceil(document.documentElement.scrollHeight);")
    wd.s("POST", "/window/rect", {"width": 1280, "height": min(int(height) + 140, 9000)})
    time.sleep(0.3)
    png = base64.b64decode(wd.s("GET", "/screenshot", timeout=60))
    with open(shot, "wb") as f:
        f.write(png)
    wd.s("POST", "/window/rect", {"width": 1280, "height": 900})
    return counts


def fmt_mib(b):
    """As the page's fmtBytes for sizes between 1 MiB and 1 GiB."""
    return "%.2f MiB" % (b / (1 << 20))


def expect(cond, what):
    if not cond:
        raise Fail(what)
    print("  ok:", what)


def long_timeline(path, steps):
    """A long synthetic timeline (6 marks a step) with one spike, to check downsampling keeps peaks."""
    MiB = 1 << 20
    with open(path, "w") as f:
        f.write(json.dumps({"type": "run", "version": 1, "device": "cpu", "model": {"_name_or_path": "long"},
                            "options": {}, "limit_bytes": 900 * MiB}) + "\n")
        t = 0
        spike = (steps * 2 // 3, "after_backward")
        phases = ["step_start", "after_forward", "after_loss", "after_backward", "after_optimizer_step", "after_zero_grad"]
        base = [100, 400, 420, 160, 180, 120]
        prev = 100 * MiB
        for s in range(1, steps + 1):
            for p, b in zip(phases, base):
                t += 1000000
                a = (b + (s % 7)) * MiB
                peak = a + 5 * MiB + (300 * MiB if (s, p) == spike else 0)
                f.write(json.dumps({"type": "mark", "step": s, "micro_step": 0, "phase": p, "t_ns": t,
                                    "allocated_bytes": a, "reserved_bytes": a + 32 * MiB, "peak_allocated_bytes": peak,
                                    "delta_bytes": a - prev}) + "\n")
                prev = a
            f.write(json.dumps({"type": "step", "step": s, "loss": 1.0, "peak_bytes": 0}) + "\n")
    return 1 + 300 * MiB + 5 * MiB + (400 + 6) * MiB  # not used; see max computed from the file


BRUSH_JS = """
const o = document.querySelector('#chart-timeline .tl-overlay');
const r = o.getBoundingClientRect(), y = r.top + r.height / 2;
const x0 = r.left + r.width * arguments[0], x1 = r.left + r.width * arguments[1];
const ev = (t, x) => o.dispatchEvent(new MouseEvent(t, {bubbles: true, clientX: x, clientY: y, button: 0, shiftKey: arguments[2]}));
ev('mousedown', x0); ev('mousemove', (x0 + x1) / 2); ev('mousemove', x1); ev('mouseup', x1);
return window.oomkitTimeline.view();
"""
VIEW_JS = """
return {view: window.oomkitTimeline.view(), mode: document.querySelector('.tl-status').getAttribute('data-mode'),
  allocated: document.querySelectorAll('#chart-timeline .pt-allocated').length,
  env_n: Number((document.querySelector('#chart-timeline .env-peak') || {getAttribute: () => 0}).getAttribute('data-n')),
  picked: document.getElementById('step-picker') && Number(document.getElementById('step-picker').value),
  bars: document.querySelectorAll('#chart-step .bar-phase').length,
  preds: document.querySelectorAll('#chart-step .pred-tick').length,
  step_title: document.querySelector('#chart-step').closest('section').querySelector('h2').textContent};
"""


def marks_in_view(marks, view):
    """Marks whose x (step + index within the step / most marks any step has, as the report
    places them) lies in [view[0], view[1])."""
    per, slots = {}, 1
    for m in marks:
        per[m["step"]] = per.get(m["step"], 0) + 1
        slots = max(slots, per[m["step"]])
    seen, n = {}, 0
    for m in marks:
        k = seen.get(m["step"], 0)
        seen[m["step"]] = k + 1
        x = m["step"] + k / slots
        n += view[0] <= x < view[1]
    return n


def check_zoom_and_pan(wd, marks, steps):
    """Issue 13 item 1 on a timeline of `steps` steps (6 marks each): zoomed out it is an
    envelope with one row per step; a drag across 2% of the plot zooms in to the phase marks of
    the steps it covers; the pan button moves the window by half its width; a click opens that
    step phase by phase; shift-drag pans; "all steps" returns to the envelope."""
    c = wd.js(VIEW_JS)
    expect(c["mode"] == "envelope" and c["env_n"] == steps and c["allocated"] == 0,
           "zoomed out: an envelope of %d steps, no per-mark points (%s, %d)" % (steps, c["mode"], c["env_n"]))
    v = wd.js(BRUSH_JS, 0.5, 0.52, False)
    w = v[1] - v[0]
    expect(abs(w - 0.02 * steps) < 0.05 * steps * 0.02 + 1e-6, "a drag over 2%% of the plot zooms to %.2f steps (%s)" % (0.02 * steps, v))
    c = wd.js(VIEW_JS)
    want = marks_in_view(marks, v)
    expect(c["mode"] == "marks" and c["allocated"] == want > 0,
           "zoomed in: one point per phase mark in view (%d == %d)" % (c["allocated"], want))
    wd.js("document.querySelector('.tl-controls button[title^=\"pan right\"]').click();")
    c = wd.js(VIEW_JS)
    expect(abs(c["view"][0] - (v[0] + w / 2)) < 1e-6 and abs(c["view"][1] - c["view"][0] - w) < 1e-6,
           "the pan button moves the window by half its width (%s -> %s)" % (v, c["view"]))
    v2 = c["view"]
    wd.js(BRUSH_JS, 0.5, 0.5, False)  # a click in the middle of the plot
    c = wd.js(VIEW_JS)
    mid = int((v2[0] + v2[1]) / 2)
    expect(c["picked"] in (mid - 1, mid, mid + 1) and c["bars"] == 6 and c["step_title"] == "Step %d, phase by phase" % c["picked"],
           "a click opens step %s phase by phase (%d bars)" % (c["picked"], c["bars"]))
    v3 = wd.js(BRUSH_JS, 0.6, 0.4, True)  # shift-drag to the left by 20% of the plot: pans right
    expect(abs(v3[0] - (v2[0] + 0.2 * (v2[1] - v2[0]))) < 0.02 * (v2[1] - v2[0]),
           "shift-drag pans by the drag (%s -> %s)" % (v2, v3))
    wd.js("document.querySelector('.tl-controls button[title=\"show the whole run\"]').click();")
    c = wd.js(VIEW_JS)
    expect(c["mode"] == "envelope" and c["env_n"] == steps, "'all steps' returns to the envelope")
    wd.js("const p = document.getElementById('step-picker'); p.value = arguments[0]; p.dispatchEvent(new Event('change'));", 7)
    c = wd.js(VIEW_JS)
    expect(c["picked"] == 7 and c["bars"] == 6, "the step picker opens step 7 (%d bars)" % c["bars"])


def wait_for_driver(wd, seconds=20):
    """Polls chromedriver's /status until it is ready; raises Fail after `seconds`."""
    deadline = time.time() + seconds
    while True:
        try:
            if wd.call("GET", "/status", timeout=2).get("ready"):
                return
        except Exception:
            pass
        if time.time() > deadline:
            raise Fail("chromedriver did not start within %d s" % seconds)
        time.sleep(0.2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--oomkit", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--timeout", type=int, default=240)
    a = ap.parse_args()
    chromium = find(["chromium", "chromium-browser", "google-chrome"])
    driver = find(["chromedriver"])
    if not chromium or not driver:
        print("SKIP: chromium or chromedriver not installed (Debian: apt-get install chromium chromium-driver)")
        return SKIP
    signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(Fail("timed out after %ds" % a.timeout)))
    signal.alarm(a.timeout)
    os.makedirs(a.out, exist_ok=True)
    work = tempfile.mkdtemp(prefix="oomkit_browser_")
    data = a.data

    # The reports under test.
    reports = {}
    # Every `oomkit estimate --json` shape, written by oomkit itself (issue 9 item 4: the
    # estimate JSON and the report agree on one schema): plain, --max-batch, --sweep.
    shapes = {
        "estimate_plain": ["--model", "gpt2", "--batch-size", "4", "--seq-len", "512"],
        "estimate_max_batch": ["--model", "gpt2", "--seq-len", "1024", "--gpu", "rtx-4090", "--max-batch"],
        "estimate_sweep": ["--sweep", "--seq-len", "1024"],
    }
    shape_json = {}
    for name, args in shapes.items():
        path = os.path.join(work, name + ".json")
        with open(path, "w") as f:
            f.write(run_oomkit(a.oomkit, ["estimate", "--json"] + args))
        with open(path) as f:
            shape_json[name] = json.load(f)
        reports[name] = run_oomkit(a.oomkit, ["report", path, "-o", os.path.join(a.out, name + ".html")])
    long_path = os.path.join(work, "long.jsonl")
    long_timeline(long_path, 5000)
    reports["long"] = run_oomkit(a.oomkit, ["report", long_path, "--max-points", "600", "-o", os.path.join(a.out, "long.html")])
    # The default run's length (400 steps of 6 marks): every mark embedded.
    steps400_path = os.path.join(work, "steps400.jsonl")
    long_timeline(steps400_path, 400)
    reports["steps400"] = run_oomkit(a.oomkit, ["report", steps400_path, "-o", os.path.join(a.out, "steps400.html")])
    # An OOM recovery whose "recover" event carries the recovered setup's estimate (as
    # `oomkit train --on-oom recover` writes it): the report uses it from the recovery step on.
    rec_dir = os.path.join(work, "recovered")
    shutil.copytree(os.path.join(data, "run_oom"), rec_dir)
    rec_recs = read_jsonl(os.path.join(rec_dir, "timeline.jsonl"))
    rec_est = json.loads(json.dumps(rec_recs[0]["estimate"]))
    rec_est["peak_bytes"] = 103 * (1 << 20)
    for ph in rec_est["phases"]:
        ph["allocated_bytes"] //= 2
    rec_step = None
    with open(os.path.join(rec_dir, "timeline.jsonl"), "w") as f:
        for r in rec_recs:
            if r["type"] == "event" and r["name"] == "recover":
                r["estimate"] = rec_est
                rec_step = r["step"]
            f.write(json.dumps(r) + "\n")
    reports["recovered"] = run_oomkit(a.oomkit, ["report", rec_dir, "-o", os.path.join(a.out, "recovered.html")])
    # A data-parallel run (issue 14 item 4): rank 1's timeline beside rank 0's, 1 MiB higher.
    ranks_dir = os.path.join(work, "ranks")
    shutil.copytree(os.path.join(data, "run_ok"), ranks_dir)
    with open(os.path.join(ranks_dir, "timeline.rank1.jsonl"), "w") as f:
        for r in read_jsonl(os.path.join(ranks_dir, "timeline.jsonl")):
            if r["type"] == "mark":
                r["allocated_bytes"] += 1 << 20
                r["peak_allocated_bytes"] += 1 << 20
            f.write(json.dumps(r) + "\n")
    reports["ranks"] = run_oomkit(a.oomkit, ["report", ranks_dir, "-o", os.path.join(a.out, "ranks.html")])
    # The estimate page of a model that does not fit (issue 13 item 1: verdict, headroom, fixes).
    llama_path = os.path.join(work, "llama.json")
    with open(llama_path, "w") as f:
        f.write(run_oomkit(a.oomkit, ["estimate", "--json", "--model", "llama-2-7b", "--gpu", "a100-sxm4-80gb"]))
    with open(llama_path) as f:
        llama = json.load(f)
    reports["llama"] = run_oomkit(a.oomkit, ["report", llama_path, "-o", os.path.join(a.out, "llama.html")])

    port = free_port()
    log = open(os.path.join(a.out, "chromedriver.log"), "w")
    proc = subprocess.Popen([driver, "--port=%d" % port, "--allowed-ips=127.0.0.1"], stdout=log, stderr=subprocess.STDOUT)
    wd = WebDriver(port)
    try:
        wait_for_driver(wd)
        wd.start(chromium, os.path.join(work, "profile"))

        runs = sorted(d for d in os.listdir(data) if os.path.isfile(os.path.join(data, d, "timeline.jsonl")))
        for name in runs:
            print(name)
            reports[name] = run_oomkit(a.oomkit, ["report", os.path.join(data, name), "-o", os.path.join(a.out, name + ".html")])
            recs = read_jsonl(os.path.join(data, name, "timeline.jsonl"))
            run = recs[0]
            n_marks = sum(1 for r in recs if r["type"] == "mark")
            c = open_report(wd, reports[name], os.path.join(a.out, name + ".png"))
            expect(c["timeline"] == 1, "memory-over-time chart present")
            expect(c["allocated"] == n_marks, "one allocated point per mark (%d == %d)" % (c["allocated"], n_marks))
            expect(c["peaks"] == n_marks, "one peak point per mark (%d)" % c["peaks"])
            z = expected_zoom_marks(recs)
            expect(c["phase_bars"] == z, "zoomed step has one bar per mark (%d == %d)" % (c["phase_bars"], z))
            cats = []
            has_summary = os.path.isfile(os.path.join(data, name, "summary.json")) or any(r["type"] == "summary" for r in recs)
            if os.path.isfile(os.path.join(data, name, "summary.json")):
                with open(os.path.join(data, name, "summary.json")) as f:
                    cats = json.load(f).get("categories", [])
            # Bars: every category but "peak" (the sum, shown in the table); estimated from the
            # estimate's totals or the summary's pairs, measured from the summary (-1: none).
            est = set(run["estimate"]["totals"]) | {r["category"] for r in cats if r.get("estimated_bytes", -1) >= 0}
            est.discard("peak")
            n_measured = sum(1 for r in cats if r["category"] != "peak" and r.get("measured_bytes", -1) >= 0)
            expect(c["estimated"] == len(est), "one estimated bar per category (%d == %d)" % (c["estimated"], len(est)))
            expect(c["measured"] == n_measured, "one measured bar per measured category (%d == %d)" % (c["measured"], n_measured))
            has_limit = run.get("limit_bytes", 0) > 0
            expect(c["limit"] == (1 if has_limit else 0), "memory limit line drawn iff there is a limit (%d)" % c["limit"])
            expect(any("MiB" in l or "GiB" in l for l in c["axis_labels"]), "axis labelled in binary units: %s" % c["axis_labels"][:2])
            if "<b>not bold</b>" in json.dumps(run, ensure_ascii=False):
                expect(c["bold"] == 0 and '<b>not bold</b>' in c["text"], "markup in the input shown as text, not parsed")
            tipt = wd.js(HOVER_JS, "#chart-timeline .pt-allocated")
            expect(tipt and "allocated" in tipt and "iB" in tipt, "hovering a point shows its numbers: %r" % (tipt or "")[:60])
            n_oom = sum(1 for r in recs if r["type"] == "event" and r["name"] == "oom")
            expect(c["oom"] == n_oom, "one OOM marker per OOM event (%d)" % n_oom)
            n_findings = 0
            if os.path.isfile(os.path.join(data, name, "oom_report.json")):
                with open(os.path.join(data, name, "oom_report.json")) as f:
                    n_findings = len(json.load(f)["findings"])
            expect(c["findings"] == n_findings, "every finding shown (%d)" % n_findings)
            expect(("interrupted" in c["text"]) == (not has_summary), "a run without summary is marked interrupted")

        for name in shapes:
            print(name)
            est = shape_json[name]
            c = open_report(wd, reports[name], os.path.join(a.out, name + ".png"))
            if "sweep" in est:
                expect(c["sweep"] == len(est["sweep"]) > 0, "%s: one sweep point per model (%d)" % (name, c["sweep"]))
                tipt = wd.js(HOVER_JS, "#chart-sweep .pt-sweep")
                expect(tipt and "gpt2" in tipt and "peak" in tipt, "%s: hovering a point names its model: %r" % (name, tipt))
            else:
                expect(c["estimated"] == len(est["totals"]) > 0 and c["measured"] == 0, "%s: category chart" % name)
                expect(c["phase_bars"] > 0, "%s: predicted-phase chart (%d bars)" % (name, c["phase_bars"]))
            if "batch_curve" in est:
                expect(c["batch"] == len(est["batch_curve"]) > 0, "%s: one point per batch size (%d)" % (name, c["batch"]))
                expect(c["capacity"] == 1 and c["usable"] == 1, "%s: capacity and usable lines" % name)

        print("long")
        recs = read_jsonl(long_path)
        marks = [r for r in recs if r["type"] == "mark"]
        c = open_report(wd, reports["long"], os.path.join(a.out, "long.png"))
        # Zoomed out a long run is its envelope (merged to at most --max-points rows), not a
        # point per mark; the embedded marks are downsampled to --max-points.
        expect(c["mode"] == "envelope" and 0 < c["env_n"] <= 600 and c["allocated"] == 0,
               "%d steps drawn as an envelope of %d rows (<= 600)" % (5000, c["env_n"]))
        expect(c["embedded"] <= 600, "%d marks downsampled to %d embedded (<= 600)" % (len(marks), c["embedded"]))
        top = max(m["peak_allocated_bytes"] for m in marks)
        expect(c["embedded_max_peak"] == top, "the highest peak survives downsampling (%d)" % top)
        env_top = wd.js("return Math.max(...JSON.parse(document.getElementById('oomkit-data').textContent).timeline.envelope.map(e => e[4]));")
        expect(env_top == top, "the envelope keeps the highest peak (%d)" % top)

        print("steps400")
        recs = read_jsonl(steps400_path)
        marks = [r for r in recs if r["type"] == "mark"]
        c = open_report(wd, reports["steps400"], os.path.join(a.out, "steps400.png"))
        expect(c["embedded"] == len(marks), "all %d marks of a 400-step run embedded" % len(marks))
        check_zoom_and_pan(wd, marks, 400)
        legend = wd.js("return [...document.querySelector('#chart-timeline').closest('section').querySelectorAll('.legend > span')].map(s => s.textContent);")
        order = [l for l in legend if l in ("step start", "forward", "loss", "backward", "optimizer step", "zero grad")]
        expect(order == ["step start", "forward", "loss", "backward", "optimizer step", "zero grad"],
               "phase legend in execution order: %s" % order)

        print("ranks")
        c = open_report(wd, reports["ranks"], os.path.join(a.out, "ranks.png"))
        n_lines = wd.js("return document.querySelectorAll('#chart-timeline .line-rank').length;")
        expect(n_lines == 1, "rank 1's allocated drawn over rank 0's timeline (%r line)" % n_lines)
        rows = wd.js("const h = [...document.querySelectorAll('h2')].find(x => x.textContent === 'Ranks');"
                     " return h ? [...h.parentElement.querySelectorAll('tbody tr')].map(r => r.textContent) : null;")
        expect(rows is not None and len(rows) == 2, "the Ranks table has one row per rank: %r" % (rows,))

        print("recovered")
        c = open_report(wd, reports["recovered"], os.path.join(a.out, "recovered.png"))
        card = [t for t in c["cards"] if "recovered setup" in t.lower()]  # card keys are upper-cased by CSS
        expect(card and "103.00 MiB" in card[0] and ("from step %d" % rec_step) in card[0],
               "the estimate card shows the recovered setup's estimate: %r" % (card[:1],))
        expect(c["recovered_lines"] == 1, "the recovered estimate's line is drawn from the recovery on")
        wd.js("const p = document.getElementById('step-picker'); p.value = arguments[0]; p.dispatchEvent(new Event('change'));", rec_step + 1)
        v = wd.js(VIEW_JS)
        half = {p["phase"]: p["allocated_bytes"] for p in rec_est["phases"] if p["step_kind"] == "steady"}
        ticks = wd.js("return [...document.querySelectorAll('#chart-step .bar-phase')].map(g => g.getAttribute('data-tip'));")
        expect(v["preds"] > 0 and any(("estimated " + fmt_mib(half["after_forward"])) in t for t in ticks),
               "after the recovery the phase view predicts from the recovered estimate (%s)" % fmt_mib(half["after_forward"]))

        print("llama")
        c = open_report(wd, reports["llama"], os.path.join(a.out, "llama.png"))
        expect(any(t.startswith("VERDICT does not fit") or "verdict does not fit" in t.lower() for t in c["cards"]),
               "verdict card: does not fit (%s)" % [t for t in c["cards"] if "verdict" in t.lower()])
        expect(any("headroom" in t.lower() and "-" in t for t in c["cards"]), "headroom card (negative)")
        n_plans = len(llama["fixes"]) + len(llama["remedies"]["combinations"]) + len(llama["remedies"]["more_hardware"])
        expect(c["fix_bars"] == 1 + n_plans, "one bar per fix and plan plus the setup as given (%d == %d)" % (c["fix_bars"], 1 + n_plans))
        expect(c["fix_lines"] == 2 and c["phase_capacity"] == 1 and c["phase_usable"] == 1,
               "capacity and usable lines on the fixes and the phase charts")
        names = wd.js("return [...document.querySelectorAll('table.fixes tbody tr')].map(r => r.children[1].textContent);")
        expect(names[:len(llama["fixes"])] == [x["name"] for x in llama["fixes"]], "fixes listed in the catalogue's rank order")
        print("PASS; screenshots in", a.out)
        return 0
    except Fail as e:
        print("FAIL:", e)
        return 1
    finally:
        signal.alarm(0)
        try:
            if wd.sid:
                wd.call("DELETE", "/session/" + wd.sid, timeout=10)
        except Exception:
            pass
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
