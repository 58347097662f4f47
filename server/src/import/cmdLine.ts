/**
 * A curl command copied for Windows' `cmd.exe` ("Copy as cURL (cmd)" in Chromium, "Copy as
 * cURL (Windows)" in Firefox) read into its arguments, as cmd.exe and then the C runtime
 * would read them. curlconverter reads only POSIX shells, so such a command is turned into
 * its argument list here and handed over as one.
 *
 * cmd.exe: `^` escapes the next character (a `^` at the end of a line continues the command
 * on the next), `"` toggles quoting for cmd itself. The C runtime then splits at blanks
 * outside double quotes, reads `\"` as a quote and `""` inside quotes as one quote
 * (Firefox's form), and keeps other backslashes. Chromium writes each argument as
 * `^"...^"` with `\"` for a quote and `^` before every special character; Firefox writes
 * `"..."` with `""` for a quote and `"%"` around a percent sign.
 */

/** Whether a command looks written for cmd.exe rather than a POSIX shell. */
export function looksLikeCmd(text: string): boolean {
  return /\^\s*\r?\n/.test(text) || /(^|\s)\^"/.test(text);
}

/** The arguments of a cmd.exe command line (the first is the program, `curl`). */
export function cmdArguments(text: string): string[] {
  // cmd.exe's pass: carets escape (a caret before a line break joins the lines), quotes toggle.
  // What reaches the C runtime keeps the quotes; an escaped quote is marked so that it stays one.
  let line = '';
  const escapedQuote = '\u0000';
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '^' && i + 1 < text.length) {
      const next = text[i + 1];
      if (next === '\r' && text[i + 2] === '\n') {
        i += 2;
        // Chromium writes `^` + two line breaks for a line break inside a value; one for a continuation.
        if (text[i + 1] === '\r' && text[i + 2] === '\n') {
          line += '\n';
          i += 2;
        } else if (text[i + 1] === '\n') {
          line += '\n';
          i += 1;
        }
        continue;
      }
      if (next === '\n') {
        i += 1;
        if (text[i + 1] === '\n') {
          line += '\n';
          i += 1;
        }
        continue;
      }
      line += next === '"' ? escapedQuote : next;
      i++;
      continue;
    }
    line += c === '\r' ? '' : c;
  }
  // The C runtime's pass (the rules of CommandLineToArgvW / the MSVC runtime).
  const args: string[] = [];
  let current = '';
  let started = false;
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '\\') {
      let n = 0;
      while (line[i + n] === '\\') n++;
      const after = line[i + n];
      if (after === '"' || after === escapedQuote) {
        current += '\\'.repeat(Math.floor(n / 2));
        i += n - 1;
        if (n % 2 === 1) {
          current += '"';
          i++;
        }
        // With an even count the quote is read by the next turn of the loop.
      } else {
        current += '\\'.repeat(n);
        i += n - 1;
      }
      started = true;
      continue;
    }
    if (c === '"' || c === escapedQuote) {
      if (quoted && line[i + 1] === '"') {
        // `""` inside quotes: one quote, and quoting goes on.
        current += '"';
        i++;
      } else {
        quoted = !quoted;
      }
      started = true;
      continue;
    }
    if (!quoted && (c === ' ' || c === '\t' || c === '\n')) {
      if (started) args.push(current);
      current = '';
      started = false;
      continue;
    }
    current += c;
    started = true;
  }
  if (started) args.push(current);
  return args;
}
