// The verify page's record check: a record of the day's deal, opened from a file or pasted,
// goes to the server, which replays it and says whether every AI card followed from the deal
// and the play; the page shows its words (its own, translated, come in the form's data).

import { exactSeed } from "./json.js";

const form = document.getElementById("verify-record");

function say(words, ok) {
  const verdict = form.querySelector("#record-verdict");
  verdict.textContent = words;
  verdict.dataset.ok = ok === null ? "" : String(ok);
}

if (form) {
  const text = form.querySelector("#record-text");
  form.querySelector("#record-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (file) text.value = await file.text();
  });
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    let record;
    try {
      record = JSON.parse(text.value, exactSeed);
    } catch {
      say(form.dataset.notJson, false);
      return;
    }
    // what the replay derives itself stays here: the request stays small
    if (record && typeof record === "object") {
      delete record.tricks;
      delete record.events;
      if (record.result && typeof record.result === "object") {
        delete record.result.lines;
        delete record.result.piles;
      }
    }
    say(form.dataset.checking, null);
    const res = await fetch(form.dataset.url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "Accept-Language": document.documentElement.lang },
      body: JSON.stringify(record),
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) say(typeof data.detail === "string" ? data.detail : res.statusText, false);
    else say(data.text, data.ok);
  });
}
