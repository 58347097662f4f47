/**
 * The checker package: `Checker` and what its callers use (diagnostics, the scope of a
 * block). The checks live by subject: `text.ts` (variables, a token, durations), `path.ts`
 * (the target), `parameters.ts` (each parameter, then requirements and rules), `jsonBody.ts`.
 */
export { Checker } from './checker';
export {
  shiftDiagnostic,
  type Diagnostic,
  type DiagnosticCode,
  type DiagnosticData,
  type Severity,
} from './diagnostics';
export {
  documentScope,
  environmentValues,
  grantedScopes,
  RequestsBefore,
  requestNamesOf,
  type Environments,
  type GrantedScopes,
  type OtherEnvironments,
  type VariableScope,
} from './scope';
export { readsVariables } from './text';
