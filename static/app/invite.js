// "Invite" on the host's join panel: the join link handed to the device's share sheet (the Web Share API, where the
// browser has it), else copied, else selected for the host to copy; what happened is said in words, on the panel and
// to a screen reader. An htmx extension, set up once.
(() => {
  "use strict";
  function tell(button, words) {
    const note = button.parentElement.querySelector(".invite-note");
    if (note) note.textContent = words;
    sk.byId("announce-polite").textContent = words;
  }
  async function invite(button) {
    const url = button.dataset.invite;
    if (navigator.share) {
      try {
        await navigator.share({ title: button.dataset.title, text: button.dataset.title, url });
        return;
      } catch (error) {
        // The host closed the share sheet: nothing more to do. Any other refusal: copied instead.
        if (error.name === "AbortError") return;
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      tell(button, button.dataset.copied);
    } catch {
      // No clipboard for this page (one served over plain HTTP on the home network): the link selected.
      const link = button.closest(".join-panel")?.querySelector(".join-link a");
      if (link) getSelection().selectAllChildren(link);
      tell(button, button.dataset.selected);
    }
  }
  function pressed({ target }) {
    const button = target.closest("button[data-invite]");
    if (button) invite(button);
  }
  htmx.defineExtension("invite", { init() { document.addEventListener("click", pressed); } });
})();
