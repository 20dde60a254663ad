// The host's grimoire: the whole state on connect, then the parts that changed (diffs) as they arrive.
"use strict";
const parts = {};
let events = [];
const $ = (id) => document.getElementById(id);

function seatBox(s) {
  const box = Castle.el("div", "seat status-" + s.status.split(" ")[0]);
  box.dataset.name = s.name;
  box.appendChild(Castle.el("div", "name", s.seat + " " + s.name + (s.player !== s.name ? " (" + s.player + ")" : "")));
  box.appendChild(Castle.el("div", "allegiance " + String(s.allegiance).toLowerCase(), s.allegiance || ""));
  let role = s.role || "no power";
  if (s.drunk) role = "The Drunk (" + role + ")";
  box.appendChild(Castle.el("div", "role", role));
  if (s.false_role) box.appendChild(Castle.el("div", "false", "shows: " + s.false_role));
  box.appendChild(Castle.el("div", "status", s.status));
  if (s.items.length) box.appendChild(Castle.el("div", "items", s.items.join(", ")));
  if (s.marks.length) box.appendChild(Castle.el("div", "marks", s.marks.join(" · ")));
  const note = (parts.notes || {})[s.name];
  if (note) box.appendChild(Castle.el("div", "note", "note: " + note));
  return box;
}

function renderTable() {
  const table = $("table");
  table.replaceChildren();
  const seats = Object.keys(parts).filter((k) => k.startsWith("seat/")).map((k) => parts[k]);
  seats.sort((a, b) => a.seat - b.seat);
  Castle.place(table, seats.map(seatBox));
  const c = parts.clock || {};
  table.appendChild(Castle.el("div", "centre", c.over ? "Over: " + (c.winner || "") : "Day " + c.day));
  const pick = $("seat");
  const chosen = pick.value;
  pick.replaceChildren(...seats.filter((s) => s.status === "in" || s.status === "absent")
    .map((s) => { const o = Castle.el("option", "", s.seat + " " + s.name); o.value = s.seat; return o; }));
  if (chosen) pick.value = chosen;
  if (!pick.value && pick.options.length) pick.selectedIndex = 0;
  const noteSeat = $("note-seat");
  if (noteSeat.options.length !== seats.length) {
    const was = noteSeat.value;
    noteSeat.replaceChildren(...seats.map((s) => new Option(s.seat + " " + s.name, s.name)));
    if (was) noteSeat.value = was;
    showNote();
  }
}

function showNote() {
  // The note box shows the chosen contestant's note unless the host is typing in it.
  if (document.activeElement !== $("note-text")) $("note-text").value = (parts.notes || {})[$("note-seat").value] || "";
}

function renderVotes() {
  const tables = parts.votes || [];
  const body = $("votes").querySelector(".body");
  if (!tables.length) { body.textContent = "no round table yet"; return; }
  body.replaceChildren(...tables.slice().reverse().map((t) => {
    const box = Castle.el("div", "table-vote");
    box.appendChild(Castle.el("h3", "", t.title + ": " + t.result));
    const nominated = Object.entries(t.nominations || {});
    if (nominated.length) box.appendChild(Castle.el("div", "nominations", "nominations: " +
      nominated.map(([k, v]) => k + " → " + (v || "held back")).join(", ")));
    for (const r of t.rounds) {
      box.appendChild(Castle.el("div", "round", r.kind + " vote " + r.count + (r.tied.length > 1 ? " · tie: " + r.tied.join(", ") : "")));
      const papers = Castle.el("ul", "papers");
      for (const [voter, target, weight] of r.papers) {
        papers.appendChild(Castle.el("li", "", voter + " → " + (target || "no vote") + (weight > 1 ? " (x" + weight + ")" : "")));
      }
      box.appendChild(papers);
      box.appendChild(Castle.el("div", "tally", "tally: " + (Object.entries(r.tally).map(([k, v]) => k + " " + v).join(", ") || "no paper")));
    }
    for (const line of t.notes || []) box.appendChild(Castle.el("div", "marks", line));
    return box;
  }));
}

function renderNightOrder() {
  const list = $("nightorder").querySelector("ol");
  list.replaceChildren(...(parts.night_order || []).map((row) => {
    const li = Castle.el("li");
    li.appendChild(Castle.el("b", "", row.step));
    if (row.who.length) li.appendChild(Castle.el("span", "who", " · " + row.who.join(", ")));
    li.appendChild(Castle.el("div", "what", row.what));
    return li;
  }));
}

function renderTimeline() {
  const steps = parts.timeline;
  const panel = $("timeline");
  panel.hidden = !steps;
  if (!steps) return;
  const scrub = $("scrub");
  scrub.max = String(steps.length - 1);
  const step = steps[Number(scrub.value)];
  $("step-title").textContent = (Number(scrub.value) + 1) + "/" + steps.length + " " + step.title;
  $("step-lines").replaceChildren(...step.lines.map((line) => Castle.el("li", "", line)));
  $("step-out").textContent = "out so far: " + (step.out.length ? step.out.map(([n, how]) => n + " (" + how + ")").join(", ") : "nobody");
}

function kv(obj) {
  return Object.entries(obj || {}).map(([k, v]) => k + " → " + (Array.isArray(v) ? v.join(" ") : v)).join("\n");
}

function renderPanels() {
  const c = parts.clock || {};
  $("phase").textContent = (c.phase || "not started") + " · day " + (c.day ?? 0);
  Castle.clock = { deadline: c.deadline, paused: c.paused };
  const pause = $("pause");
  if (pause) pause.textContent = pause.dataset.label + (c.paused !== null && c.paused !== undefined ? " (paused)" : "");
  const night = parts.night;
  $("night").querySelector(".body").textContent = night ? [
    night.picks && Object.keys(night.picks).length ? "picks:\n" + kv(night.picks) : "",
    night.nominations && Object.keys(night.nominations).length ? "nominations:\n" + kv(night.nominations) : "",
    night.offer ? "offer: " + night.offer.join(" ") : "",
    night.powers && night.powers.length ? "powers:\n" + night.powers.map((p) => p.flat().join(" ")).join("\n") : "",
    night.waiting && night.waiting.length ? "waiting for: " + night.waiting.join(", ") : "",
  ].filter(Boolean).join("\n") || "no choices yet" : "no night running";
  const vote = parts.vote;
  $("vote").querySelector(".body").textContent = vote ? [
    "kind: " + vote.kind,
    vote.votes ? "votes:\n" + kv(vote.votes) : "",
    vote.tally ? "tally: " + Object.entries(vote.tally).map(([k, v]) => k + " " + v).join(", ") : "",
    vote.tied && vote.tied.length > 1 ? "tied: " + vote.tied.join(", ") : "",
    vote.torches ? "torches:\n" + kv(vote.torches) : "",
    vote.nominations && Object.keys(vote.nominations).length ? "nominations:\n" + kv(vote.nominations) : "",
  ].filter(Boolean).join("\n") : "no vote open";
  const twist = $("twist");
  if (!twist.options.length && c.twists) {
    for (const t of c.twists) twist.appendChild(new Option(t, t));  // the ruleset's twists (Ruleset.twists)
  }
}

const PICKS = { start_twist: "twist-row", cancel_twist: "twist-row", replace_contestant: "seat-row" };
// The buttons that take the twist or the seat from their list go in that list's row, the row where its first
// button falls; every other button stands alone, in the console's order.

function renderControls(controls) {
  const box = $("controls");
  const names = controls.map((c) => c.control).join(" ");
  if (box.dataset.names === names) return;
  box.dataset.names = names;
  box.querySelectorAll("[data-control]").forEach((b) => b.remove());
  const reply = $("reply");
  const placed = new Set();
  for (const c of controls) {
    const b = Castle.el("button", c.control === "end_series" ? "danger" : "", c.label);
    b.dataset.control = c.control;
    b.dataset.label = c.label;
    if (c.control === "pause_clock") b.id = "pause";
    b.addEventListener("click", () => press(b.dataset.control));
    const row = PICKS[c.control] && $(PICKS[c.control]);
    if (row && !placed.has(row)) { box.insertBefore(row, reply); placed.add(row); }
    (row || box).insertBefore(b, row ? null : reply);
  }
}

function press(control) {
  const request = { control: control };
  if (control === "replace_contestant") request.seat = Number($("seat").value);
  if (control.endsWith("_twist")) request.twist = $("twist").value;
  if (control === "end_series" && !confirm("End the series now, with no winner?")) return;
  Castle.ws.send(JSON.stringify(request));
}

function renderLog() {
  const kind = $("kind").value;
  const word = $("search").value.toLowerCase();
  const list = $("events");
  const shown = events.filter((e) => (!kind || e.kind === kind) && (!word || e.text.toLowerCase().includes(word)));
  list.replaceChildren(...shown.slice(-300).reverse().map((e) => {
    const li = Castle.el("li", "ev-" + e.kind);
    const t = new Date(e.t * 1000).toLocaleTimeString();
    li.textContent = t + " [" + e.kind + "] " + (e.to ? "→ " + e.to.join(", ") + ": " : "") + e.text;
    return li;
  }));
}

Castle.connect("/ws/host", (msg) => {
  if (msg.type === "state") {
    for (const k of Object.keys(parts)) delete parts[k];
    Object.assign(parts, msg.parts);
    events = msg.log;
    renderControls(msg.controls || []);
  } else if (msg.type === "diff") {
    Object.assign(parts, msg.set);
    for (const k of msg.drop) delete parts[k];
    events = events.concat(msg.log).slice(-5000);
  } else if (msg.type === "reply") {
    $("reply").textContent = msg.ok ? (msg.control === "note" ? "note saved" : "sent: " + msg.control) : "refused: " + msg.text;
    $("reply").className = "reply " + (msg.ok ? "ok" : "refused");
    return;
  }
  renderTable(); renderPanels(); renderLog(); renderVotes(); renderNightOrder(); renderTimeline(); showNote();
});

$("note-seat").addEventListener("change", () => { $("note-text").value = (parts.notes || {})[$("note-seat").value] || ""; });
$("note-save").addEventListener("click", () => {
  Castle.ws.send(JSON.stringify({ control: "note", contestant: $("note-seat").value, text: $("note-text").value }));
});
$("scrub").addEventListener("input", renderTimeline);
for (const [id, by] of [["step-back", -1], ["step-on", 1]]) {
  $(id).addEventListener("click", () => { $("scrub").value = String(Number($("scrub").value) + by); renderTimeline(); });
}
$("kind").addEventListener("change", renderLog);
$("search").addEventListener("input", renderLog);
