/**
 * Escaping for the HTML report: text from result files (scene and handler names, error messages,
 * adapter strings) goes through {@link escapeHtml}; data embedded in a `<script>` element goes
 * through {@link scriptJson}, which cannot close the element or open a comment.
 *
 * @module
 */

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * Escapes `&`, `<`, `>`, `"` and `'` so that any value is safe as HTML text or as a quoted
 * attribute value. `null` and `undefined` become the empty string; other values are stringified.
 */
export function escapeHtml(value: unknown): string {
  if (value === null || value === undefined) return "";
  return String(value).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * JSON for embedding inside a `<script>` element: `<`, `>`, `&`, U+2028 and U+2029 are written as
 * `\u003c` etc., so the text can neither end the element (`</script>`), start a comment (`<!--`)
 * nor break a JavaScript string. Non-finite numbers (NaN, ±Infinity) become `null`, as in
 * `JSON.stringify`. The result parses back with `JSON.parse` to the same value.
 */
export function scriptJson(value: unknown): string {
  const text = JSON.stringify(value) ?? "null";
  return text.replace(/[<>&\u2028\u2029]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, "0");
    return `\\u${hex}`;
  });
}
