/** The VS Code extension entry (filled in by the extension issue). */
export {};
