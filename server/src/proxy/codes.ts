/**
 * The codes the proxy reports beside the checker's (docs/codes.md): what it could not check,
 * and what the typed check of a response finds (the sender's codes, docs/sending.md). The
 * SARIF report names each as a rule; docs/proxy.md lists them.
 */
export interface ProxyCode {
  title: string;
  help: string;
  severity: 'error' | 'warning' | 'note';
}

export const PROXY_CODES: ReadonlyMap<string, ProxyCode> = new Map([
  [
    'not-checked',
    {
      title: 'not checked',
      help: 'A body the proxy passed on without checking it: larger than the checked size, compressed in an encoding it does not read, or of a type it does not read (a file upload, a binary download).',
      severity: 'note',
    },
  ],
  [
    'invalid-json',
    {
      title: 'invalid JSON',
      help: 'A body declared as JSON (Content-Type application/json) that is not valid JSON, in the request or in the response.',
      severity: 'error',
    },
  ],
  [
    'type-mismatch',
    {
      title: 'response field of another type',
      help: 'A field of a response whose value is not of the type the documentation gives it (a string where an integer is documented, null where null is not allowed).',
      severity: 'warning',
    },
  ],
  [
    'undocumented-field',
    {
      title: 'undocumented response field',
      help: 'A field of a response that the documented resource does not have.',
      severity: 'warning',
    },
  ],
  [
    'unknown-enum-value',
    {
      title: 'undocumented response value',
      help: 'A response field whose value is not one of the values the documentation lists for it.',
      severity: 'warning',
    },
  ],
]);
