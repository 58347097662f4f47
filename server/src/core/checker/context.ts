/** What the checks of one request share once its target matched a documented endpoint. */
import type { Endpoint, EndpointPath } from '../catalog/catalog';
import type { Block, ParameterLine, RequestLine } from '../parser';
import type { Diagnostic } from './diagnostics';

export interface RequestCheck {
  readonly block: Block;
  readonly request: RequestLine;
  readonly endpoint: Endpoint;
  /** The documented path the target matched. */
  readonly path: EndpointPath;
  /** The values the target gives the path's placeholders, by placeholder name. */
  readonly bindings: Map<string, string>;
  /** `METHOD /template`: how messages name the endpoint. */
  readonly label: string;
  /** The request line: where a diagnostic about the request as a whole stands (a parameter missing). */
  readonly lineStart: number;
  readonly lineEnd: number;
  /** Where every check of the block reports (offsets relative to the block). */
  readonly out: Diagnostic[];
}

/** No parameters to check apart (shared, never written to). */
export const NO_PARAMS: ParameterLine[] = [];
