/**
 * Request metadata (`# @key value` above the request line) that lpreq acts on, as REST
 * Client and JetBrains' client write it: what completion offers after `# @` and hover
 * says on a key. Other keys are left alone, as other clients' settings.
 */
export interface MetadataKey {
  key: string;
  /** The snippet completion inserts after `@`. */
  insert: string;
  /** Markdown. */
  doc: string;
}

export const METADATA: MetadataKey[] = [
  { key: 'name', insert: 'name ${1:request}', doc: 'Names the request: later requests use its response (`{{request.response.body.$.id}}`), and `lpreq send --name request` sends it.' },
  { key: 'prompt', insert: 'prompt ${1:variable} ${2:What to ask}', doc: 'A variable asked for when the request is sent (an input box in the editor, the terminal or `--prompt variable=value` on the command line). In this request it wins over a file or environment variable of the same name.' },
  { key: 'note', insert: 'note ${1:why to think twice}', doc: 'Asks before the request is sent, showing the note: for requests that change or delete data. Asked too when another request refers to this one.' },
  { key: 'no-redirect', insert: 'no-redirect', doc: 'A 3xx answer is the response, shown as it is: its `Location` is not followed.' },
];
