#!/usr/bin/env python3
"""Screenshots the top of an `oomkit report` page, scaled down, for the docs (docs/report.png).
Usage: screenshot.py REPORT.html OUT.png [--width 1100] [--height 1500] [--scale 0.6]
Uses chromedriver + headless Chromium like browser_test.py; fails on console errors."""
import argparse, base64, os, subprocess, sys, tempfile, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import browser_test as bt  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("html")
    ap.add_argument("out")
    ap.add_argument("--width", type=int, default=1100)
    ap.add_argument("--height", type=int, default=1500)
    ap.add_argument("--scale", type=float, default=0.6)
    a = ap.parse_args()
    port = bt.free_port()
    proc = subprocess.Popen([bt.find(["chromedriver"]), "--port=%d" % port], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    wd = bt.WebDriver(port)
    try:
        bt.wait_for_driver(wd)
        wd.start(bt.find(["chromium", "chromium-browser", "google-chrome"]), tempfile.mkdtemp())
        wd.s("POST", "/window/rect", {"width": a.width, "height": a.height + 200})
        wd.s("POST", "/url", {"url": "file://" + os.path.abspath(a.html)})
        for _ in range(200):
            if wd.js("return document.body.getAttribute('data-ready');"):
                break
            time.sleep(0.1)
        errors = [e for e in wd.console() if e.get("level") == "SEVERE"]
        if errors:
            raise bt.Fail("console errors: %s" % errors)
        shot = wd.s("POST", "/goog/cdp/execute", {"cmd": "Page.captureScreenshot", "params": {
            "format": "png", "captureBeyondViewport": True, "clip": {"x": 0, "y": 0, "width": a.width, "height": a.height, "scale": a.scale}}})
        with open(a.out, "wb") as f:
            f.write(base64.b64decode(shot["data"]))
        print("%s: %d bytes" % (a.out, os.path.getsize(a.out)))
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
