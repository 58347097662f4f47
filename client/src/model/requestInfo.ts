/** A request of a document as the editor sees it (no imports: loaded at activation). */
export interface RequestInfo {
  blockIndex: number;
  /** 0-based line of the request line. */
  line: number;
  /** 0-based first and last lines of the block (separator included). */
  startLine: number;
  endLine: number;
  method: string;
  target: string;
  name?: string;
  title?: string;
  paginated: boolean;
  endpointId?: string;
}

/** A short name of a request for messages: its `@name`, its title, or METHOD target. */
export function describeRequest(r: Pick<RequestInfo, 'method' | 'target' | 'name' | 'title'>): string {
  return r.name ?? r.title ?? `${r.method} ${r.target}`;
}
