// Types the TypeScript check (tsconfig.json, `tsc -p tsconfig.json`) needs beyond the DOM's own;
// nothing here reaches the browser (the app has no build step and never loads this file).

interface Window {
  /** Hooks for tests and for anyone checking: the app, the table on screen, what was announced, motions. */
  __corazones: any;
}

interface HTMLDialogElement {
  /** Set by ui.openDialog: closes the dialog and resolves its promise with `value`. */
  closeDialog?: (value: unknown) => void;
}
