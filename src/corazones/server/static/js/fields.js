// @ts-check
// What someone typed or chose in a form, kept across a redraw: switching the language draws a screen
// again from scratch in the new language, and the lobby (its name and new-table forms), the name asked
// before a table and the score pad's setup put back what was there. Shared by the app and the pad page.

/**
 * The fields under `root` that have an id, in page order, as [id, value] pairs: an input, select or
 * textarea gives its value (a checkbox or radio whether it is checked), a <details> whether it is open.
 */
/**
 * @param {ParentNode | null | undefined} root
 * @returns {[string, string | boolean][]}
 */
export function readFields(root) {
  if (!root) return [];
  /** @type {[string, string | boolean][]} */
  const kept = [];
  for (const el of root.querySelectorAll("input[id], select[id], textarea[id], details[id]")) {
    const node = /** @type {any} */ (el);
    if (node.tagName === "DETAILS") kept.push([node.id, node.open]);
    else if (node.type === "checkbox" || node.type === "radio") kept.push([node.id, node.checked]);
    else if (node.type !== "file" && !node.readOnly) kept.push([node.id, node.value]);
  }
  return kept;
}

/**
 * Put what readFields read back into the fields with the same ids under `root`, in the order read. A
 * field whose value changes gets the input and change events a person's edit gives it, so the form
 * first draws what depends on it (a preset its options, a number of players its seats or names) and
 * the fields read after it land in what was drawn. Ids no longer there and choices a select no longer
 * offers are left as drawn.
 */
/**
 * @param {ParentNode | null | undefined} root
 * @param {[string, string | boolean][] | null | undefined} kept
 */
export function restoreFields(root, kept) {
  if (!root || !kept) return;
  for (const [id, value] of kept) {
    const node = /** @type {any} */ (root.querySelector(`#${CSS.escape(id)}`));
    if (!node) continue;
    if (node.tagName === "DETAILS") {
      node.open = Boolean(value);
      continue;
    }
    const checkable = node.type === "checkbox" || node.type === "radio";
    if (checkable ? node.checked === value : node.value === value) continue;
    if (node.tagName === "SELECT" && ![...node.options].some((/** @type {HTMLOptionElement} */ o) => o.value === value)) continue;
    if (checkable) node.checked = Boolean(value);
    else node.value = value;
    node.dispatchEvent(new Event("input", { bubbles: true }));
    node.dispatchEvent(new Event("change", { bubbles: true }));
  }
}
