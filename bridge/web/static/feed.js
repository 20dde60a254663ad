// The pages' shared parts: a websocket that reconnects by itself, the clock, and the round table's circle.
"use strict";
const Castle = {
  offset: 0, // server clock minus this browser's, in seconds (every message carries the server's "now")
  clock: { deadline: null, paused: null },
  connect(path, onMessage) {
    let wait = 250;
    const link = document.getElementById("link");
    const open = () => {
      const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + path);
      ws.onopen = () => { wait = 250; link.textContent = "live"; link.className = "link live"; };
      ws.onmessage = (ev) => {
        const msg = JSON.parse(ev.data);
        if (typeof msg.now === "number") Castle.offset = msg.now - Date.now() / 1000;
        onMessage(msg, ws);
      };
      ws.onclose = () => {
        link.textContent = "reconnecting…"; link.className = "link down";
        setTimeout(open, wait); wait = Math.min(wait * 2, 5000);
      };
      Castle.ws = ws;
    };
    open();
  },
  tick() {
    const el = document.getElementById("clock");
    const c = Castle.clock;
    let text = "--:--";
    if (c.paused !== null && c.paused !== undefined) {
      text = "paused " + Castle.mmss(c.paused);
      el.classList.add("paused");
    } else {
      el.classList.remove("paused");
      if (c.deadline) text = Castle.mmss(Math.max(0, c.deadline - (Date.now() / 1000 + Castle.offset)));
    }
    el.textContent = text;
  },
  mmss(s) {
    s = Math.ceil(s);
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  },
  place(table, seats) {
    // The seats as townsquare draws them: a circle, seat 1 at the top, clockwise.
    const n = seats.length;
    seats.forEach((el, i) => {
      const a = (2 * Math.PI * i) / n - Math.PI / 2;
      el.style.left = (50 + 40 * Math.cos(a)) + "%";
      el.style.top = (50 + 40 * Math.sin(a)) + "%";
      table.appendChild(el);
    });
  },
  el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  },
};
setInterval(Castle.tick, 250);
