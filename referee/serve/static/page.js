// referee serve's page: the log is checked as it is typed (one request 350 ms after the last
// key, an older answer never shown over a newer one), each diagnostic listed with its line
// and the marked place; the score sheet audited on request.  Everything the server or the
// log says is written as text (textContent), never as markup.
"use strict";

const words = JSON.parse(document.getElementById("words").textContent);
const $ = (id) => document.getElementById(id);
const log = $("log"), lang = $("lang"), ruleset = $("ruleset"), file = $("file");
const status = $("status"), list = $("diagnostics");
const DELAY_MS = 350;
let timer = null, asked = 0, pending = null;

function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? values[name] : whole));
}

function element(tag, className, text) {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text !== undefined) made.textContent = text;
  return made;
}

function say(text, kind) {
  status.textContent = text;
  status.className = kind || "";
}

// the offset in the textarea's string (UTF-16) of a 1-based line and column (code points)
function offset(text, line, column) {
  let start = 0;
  for (let n = 1; n < line; n++) {
    const next = text.indexOf("\n", start);
    if (next < 0) return text.length;
    start = next + 1;
  }
  let index = start;
  for (let c = 1; c < column && index < text.length && text[index] !== "\n"; c++) {
    index += text.codePointAt(index) > 0xffff ? 2 : 1;
  }
  return index;
}

function excerpt(text, diag) {
  const start = offset(text, diag.line, 1);
  let end = text.indexOf("\n", start);
  if (end < 0) end = text.length;
  const from = offset(text, diag.line, diag.column);
  let to = diag.end_line === diag.line && diag.end_column ? offset(text, diag.line, diag.end_column) : end;
  if (to <= from) to = Math.min(end, from + 1);
  const shown = element("pre", "excerpt");
  shown.append(element("span", "number", `${diag.line} | `), text.slice(start, from).replace(/\r$/, ""));
  shown.append(element("mark", "", text.slice(from, Math.min(to, end)).replace(/\r$/, "")));
  shown.append(text.slice(Math.min(to, end), end).replace(/\r$/, ""));
  return shown;
}

function select(text, diag) {
  const from = offset(text, diag.line, diag.column);
  const to = diag.end_line === diag.line && diag.end_column ? offset(text, diag.line, diag.end_column) : from;
  log.focus();
  log.setSelectionRange(from, Math.max(to, from));
}

function show(answer, text) {
  say(answer.error ? `${answer.summary}: ${answer.error}` : answer.summary, answer.verdict);
  list.replaceChildren(...answer.diagnostics.map((diag) => {
    const item = element("li", diag.severity);
    item.dataset.kind = diag.kind;
    item.dataset.line = diag.line;
    const place = element("button", "place", fill(words.place, diag));
    place.type = "button";
    place.addEventListener("click", () => select(text, diag));
    item.append(place, element("span", "code", `${diag.code} ${diag.kind}`), " ",
                element("span", "message", diag.message));
    if (diag.rule) item.append(element("span", "rule", `[${diag.rule}]`));
    if (diag.line >= 1 && text) item.append(excerpt(text, diag));
    return item;
  }), ...answer.more.map((line) => element("li", "note", line)));
}

async function ask(path, text) {
  const response = await fetch(path, {
    method: "POST", headers: {"content-type": "application/json"},
    body: JSON.stringify({log: text, lang: lang.value, ruleset: ruleset.value}),
    signal: pending.signal,
  });
  let answer = null;
  try { answer = await response.json(); } catch (error) { answer = null; }
  if (!response.ok || answer === null) {
    throw new Error(answer && answer.error ? answer.error : `${response.status} ${response.statusText}`);
  }
  return answer;
}

async function check() {
  const text = log.value, mine = ++asked;
  if (pending) pending.abort();
  pending = new AbortController();
  if (!text.trim()) { say(""); list.replaceChildren(); return; }
  say(words.checking);
  try {
    const answer = await ask("api/check", text);
    if (mine === asked) show(answer, text);
  } catch (error) {
    if (error.name === "AbortError" || mine !== asked) return;
    say(error instanceof TypeError ? words.offline : error.message, "problem");
    list.replaceChildren();
  }
}

function later() {
  clearTimeout(timer);
  timer = setTimeout(check, DELAY_MS);
}

async function audit() {
  const box = $("audit-result"), text = log.value;
  box.hidden = false;
  box.className = "";
  $("audit-text").textContent = words.auditing;
  $("audit-faults").replaceChildren();
  try {
    const response = await fetch("api/audit", {
      method: "POST", headers: {"content-type": "application/json"},
      body: JSON.stringify({log: text, lang: lang.value, ruleset: ruleset.value}),
    });
    const answer = await response.json();
    if (!response.ok) throw new Error(answer.error);
    box.className = answer.consistent ? "consistent" : "inconsistent";
    $("audit-text").textContent = answer.text;
    $("audit-faults").replaceChildren(...answer.faults.map((line) => element("li", "", line)));
  } catch (error) {
    box.className = "inconsistent";
    $("audit-text").textContent = error instanceof TypeError ? words.offline : error.message;
  }
}

async function open() {
  const chosen = file.files[0];
  if (!chosen) return;
  let text;
  try {
    text = new TextDecoder("utf-8", {fatal: true}).decode(await chosen.arrayBuffer());
  } catch (error) {
    say(words.not_text, "problem");
    list.replaceChildren();
    return;
  }
  log.value = text.replace(/^\ufeff/, "");
  $("name").value = chosen.name;
  file.value = "";  // the text box holds the log now: the report is made of what it shows
  check();
}

log.addEventListener("input", later);
ruleset.addEventListener("change", check);
file.addEventListener("change", open);
$("audit").addEventListener("click", audit);
lang.addEventListener("change", () => {
  // the page's own texts are in its language: load it again, keeping the log
  sessionStorage.setItem("referee-log", log.value);
  sessionStorage.setItem("referee-name", $("name").value);
  const url = new URL(window.location.href);
  url.searchParams.set("lang", lang.value);
  window.location.assign(url);
});
const kept = sessionStorage.getItem("referee-log");
if (kept !== null) {
  log.value = kept;
  $("name").value = sessionStorage.getItem("referee-name") || "";
  sessionStorage.removeItem("referee-log");
  sessionStorage.removeItem("referee-name");
}
if (log.value.trim()) check();
