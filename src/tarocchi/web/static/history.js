// The history page's and the move page's buttons: a display name, a move code for another
// device, deleting the player, and bringing a history here with a code. The server does
// the work and says what went wrong, in the reader's language; nothing is computed here.

const el = (id) => document.getElementById(id);

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(data.detail || res.statusText);
  return data;
}

function failed(err) {
  const box = el("me-error");
  box.textContent = err.message;
  box.hidden = false;
}

function wire() {
  const code = el("redeem-code");
  if (code && location.hash.length > 1) code.value = decodeURIComponent(location.hash.slice(1));
  el("name-form")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      const me = await call("PUT", "/api/me/name", { name: el("name").value });
      el("name").value = me.name || "";
      el("name-saved").textContent = el("name-saved").dataset.saved;
    } catch (err) {
      failed(err);
    }
  });
  el("move")?.addEventListener("click", async () => {
    try {
      const move = await call("POST", "/api/me/move");
      el("code").textContent = move.code;
      el("code-link").href = move.url;
      el("code-link").textContent = move.url;
      const svg = new DOMParser().parseFromString(move.qr, "image/svg+xml").documentElement;
      el("qr").replaceChildren(document.importNode(svg, true));
      el("move-code").hidden = false;
    } catch (err) {
      failed(err);
    }
  });
  el("delete")?.addEventListener("click", async (e) => {
    if (!window.confirm(e.currentTarget.dataset.confirm)) return;
    try {
      await call("DELETE", "/api/me");
      location.reload();
    } catch (err) {
      failed(err);
    }
  });
  el("redeem-form")?.addEventListener("submit", async (e) => {
    e.preventDefault();
    try {
      await call("POST", "/api/me/move/redeem", { code: el("redeem-code").value });
      location.assign("/history");
    } catch (err) {
      failed(err);
    }
  });
}

wire();
