// The HTML report's one script, inline: a "Copy" button copies its replay command. Where the
// clipboard cannot be written (a page opened from disk in some browsers), the command is selected
// instead, for Ctrl+C. It reads the command from the page's own text, never from the report.

/** The script's text (its hash is allowed by the page's Content-Security-Policy). */
export const COPY_SCRIPT = `
(function () {
  "use strict";
  function say(button, how, words) {
    button.setAttribute("data-copied", how);
    var status = button.parentNode.querySelector(".copied");
    if (status) status.textContent = words;
  }
  function select(button, code) {
    var range = document.createRange();
    range.selectNodeContents(code);
    var selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    var copied = false;
    try { copied = document.execCommand("copy"); } catch (e) { copied = false; }
    say(button, "selection", copied ? "Copied (and selected)." : "Selected: press Ctrl+C (\\u2318C on a Mac) to copy.");
  }
  document.addEventListener("click", function (event) {
    var button = event.target && event.target.closest ? event.target.closest("button.copy") : null;
    if (!button) return;
    var code = button.parentNode.querySelector("code");
    if (!code) return;
    var command = code.textContent;
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(command).then(function () { say(button, "clipboard", "Copied."); }, function () { select(button, code); });
    } else {
      select(button, code);
    }
  });
})();
`;
