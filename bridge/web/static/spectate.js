// The spectator page: only what the castle shows everyone; after the series, the record with every role.
"use strict";
const $ = (id) => document.getElementById(id);

function renderView(view) {
  $("phase").textContent = view.phase + " · day " + view.day;
  const out = {};
  for (const o of view.out) out[o.name] = o;
  const table = $("table");
  table.replaceChildren();
  const seats = view.seats.slice().sort((a, b) => a[1] - b[1]).map(([name, seat]) => {
    const o = out[name];
    const box = Castle.el("div", "seat " + (o ? "status-" + o.how : "status-in"));
    box.appendChild(Castle.el("div", "name", seat + " " + name));
    box.appendChild(Castle.el("div", "status", o ? o.how + " (day " + o.day + ")" : "in"));
    if (o && o.revealed) box.appendChild(Castle.el("div", "allegiance " + o.revealed, o.revealed));
    return box;
  });
  Castle.place(table, seats);
  table.appendChild(Castle.el("div", "centre", view.winner ? "Won: " + view.winner : "Day " + view.day));
}

function addEvent(text, kind) {
  const li = Castle.el("li", "ev-" + kind, text);
  $("events").prepend(li);
}

function renderRecord(msg) {
  const cast = $("cast");
  const people = msg.record.contestants || [];
  const cols = ["seat", "name", "allegiance", "power", "out", "out_day", "winner"];
  const head = Castle.el("tr");
  cols.forEach((c) => head.appendChild(Castle.el("th", "", c)));
  cast.replaceChildren(head, ...people.map((p) => {
    const tr = Castle.el("tr");
    cols.forEach((c) => tr.appendChild(Castle.el("td", "", p[c] === null || p[c] === undefined ? "" : String(p[c]))));
    return tr;
  }));
  $("recordtext").textContent = msg.text;
  $("record").hidden = false;
}

function clearPage() {
  // A connection starts with "now" and the whole feed; a new series with "reset": either way, start over.
  $("phase").textContent = "…";
  $("table").replaceChildren();
  $("events").replaceChildren();
  $("cast").replaceChildren();
  $("recordtext").textContent = "";
  $("record").hidden = true;
  Castle.clock = { deadline: null, paused: null };
}

Castle.connect("/ws/spectate", (msg) => {
  if (msg.type === "now" || msg.type === "reset") clearPage();
  else if (msg.type === "view") renderView(msg.view);
  else if (msg.type === "event") addEvent(msg.text, msg.kind);
  else if (msg.type === "clock") Castle.clock = { deadline: msg.deadline, paused: msg.paused };
  else if (msg.type === "record") renderRecord(msg);
});
