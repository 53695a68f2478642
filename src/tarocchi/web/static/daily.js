// The deal of the day's page: starts a try through the API and opens it on the table page,
// which resumes the game saved for it. The server says whether the try counts.

for (const button of document.querySelectorAll(".daily-play")) {
  button.addEventListener("click", async () => {
    const game = button.dataset.game;
    const failed = document.getElementById(`daily-error-${game}`);
    const res = await fetch(`/api/daily/${game}`, { method: "POST" });
    const data = await res.json();
    if (!res.ok) {
      failed.textContent = data.detail;
      failed.hidden = false;
      return;
    }
    localStorage.setItem(`tarocchi-${game}`, JSON.stringify({ id: data.id, token: data.token }));
    if (data.scored) location.href = `/play/${game}`;
    else document.getElementById(`daily-practice-${game}`).hidden = false;
  });
}
