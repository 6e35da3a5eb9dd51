// The report page's inline stylesheet.
#include "oomkit/report/html_report.h"

namespace oomkit {

const char* report_stylesheet() {
  return R"CSS(
:root { --ink:#1f2937; --muted:#6b7280; --line:#e5e7eb; --bg:#f8fafc; --card:#ffffff;
        --bad:#dc2626; --warn:#d97706; --good:#16a34a; --accent:#2563eb; }
* { box-sizing: border-box; }
body { margin:0; background:var(--bg); color:var(--ink);
       font:14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; }
main { max-width:1120px; margin:0 auto; padding:24px 20px 48px; }
h1 { font-size:22px; margin:0 0 4px; }
h2 { font-size:17px; margin:0 0 4px; }
.sub { color:var(--muted); margin:0 0 16px; font-size:13px; word-break:break-all; }
section { background:var(--card); border:1px solid var(--line); border-radius:10px;
          padding:16px 18px; margin:16px 0; }
section > p.note { color:var(--muted); margin:0 0 10px; font-size:13px; }
.cards { display:grid; grid-template-columns:repeat(auto-fit, minmax(150px, 1fr)); gap:10px; margin:12px 0; }
.card { background:var(--card); border:1px solid var(--line); border-radius:10px; padding:10px 12px; }
.card .k { color:var(--muted); font-size:12px; text-transform:uppercase; letter-spacing:.04em; }
.card .v { font-size:20px; font-weight:600; margin-top:2px; white-space:nowrap; }
.card .d { color:var(--muted); font-size:12px; }
.card.bad { border-color:#fecaca; background:#fef2f2; } .card.bad .v { color:var(--bad); }
.card.good .v { color:var(--good); }
.banner { border:1px solid #fecaca; background:#fef2f2; color:#7f1d1d; border-radius:10px;
          padding:12px 16px; margin:12px 0; }
.banner b { color:var(--bad); }
svg.chart { width:100%; height:auto; display:block; font-size:12px; }
svg.chart text { fill:var(--ink); }
svg.chart .axis line, svg.chart .axis path { stroke:#9ca3af; }
svg.chart .grid line { stroke:#eef0f3; }
svg.chart .axis-label { fill:var(--muted); font-size:12px; }
svg.chart .tick text { fill:var(--muted); font-size:11px; }
svg.chart [data-tip] { cursor:default; }
svg.chart .hl { pointer-events:none; }
.legend { display:flex; flex-wrap:wrap; gap:6px 16px; margin:8px 0 0; font-size:12px; color:#374151; }
.legend span.sw { display:inline-block; width:18px; height:10px; border-radius:2px; margin-right:5px;
                  vertical-align:-1px; }
.legend span.ln { display:inline-block; width:22px; height:0; border-top:2px solid; margin-right:5px;
                  vertical-align:3px; }
table { border-collapse:collapse; width:100%; font-size:13px; }
th, td { text-align:left; padding:5px 8px; border-bottom:1px solid var(--line); vertical-align:top; }
th { color:var(--muted); font-weight:600; font-size:12px; }
td.num, th.num { text-align:right; font-variant-numeric:tabular-nums; white-space:nowrap; }
td code, li code, .fix code { font-family:ui-monospace, "DejaVu Sans Mono", monospace; font-size:12px;
          background:#f3f4f6; padding:1px 4px; border-radius:4px; }
.two { display:grid; grid-template-columns:1fr 1fr; gap:16px; }
@media (max-width:800px) { .two { grid-template-columns:1fr; } }
.finding { border:1px solid var(--line); border-left:4px solid var(--warn); border-radius:8px;
           padding:10px 14px; margin:10px 0; }
.finding.top { border-left-color:var(--bad); }
.finding h3 { font-size:15px; margin:0 0 4px; }
.finding .meta { color:var(--muted); font-size:12px; margin-bottom:6px; }
.finding ul { margin:4px 0 6px 18px; padding:0; }
.badge { display:inline-block; font-size:11px; padding:1px 7px; border-radius:999px; background:#eef2ff;
         color:#3730a3; margin-right:6px; }
.ok { color:var(--good); font-weight:600; } .fail { color:var(--bad); font-weight:600; }
details summary { cursor:pointer; color:var(--accent); margin:6px 0; }
#tooltip { position:fixed; z-index:10; pointer-events:none; background:#111827; color:#f9fafb;
           font-size:12px; line-height:1.4; padding:6px 9px; border-radius:6px; white-space:pre;
           box-shadow:0 4px 14px rgba(0,0,0,.25); max-width:420px; }
footer { color:var(--muted); font-size:12px; text-align:center; margin-top:24px; }
.error { color:var(--bad); font-weight:600; }
)CSS";
}

}  // namespace oomkit
