/**
 * Which environment a send uses: one rule for every host (the command line, the language
 * server, the VS Code extension and its Testing view). The environment given for this send
 * (`--env`, a choice made in this editor session); else the choice remembered for the project
 * (`.lpreq/environment.json` beside the environment files, where every host reads and writes
 * it: node/environmentChoice.ts); else the only environment; else `local`; else the user is
 * asked. "No environment" is a choice too: nothing is sent to an environment then. Pure: the
 * hosts read the files, the sender's session (sender/session.ts) asks this.
 */

/** What the rule answers for the environments of a project. */
export type EnvironmentAnswer =
  /** `why`: given for this send, remembered for the project, the only one, `local` among several, the editor's default (initializationOptions). */
  | { state: 'chosen'; name: string; why: 'given' | 'remembered' | 'only' | 'local' | 'default'; names: string[] }
  /** No environment: chosen so (remembered, or given as null), or there are none. */
  | { state: 'none'; why: 'chosen' | 'no-environments'; names: string[] }
  /** Several environments, none called local, and none chosen: the user must choose (the editor asks, the command line says how). */
  | { state: 'ask'; names: string[] }
  /** The environment given does not exist. */
  | { state: 'unknown'; name: string; names: string[] };

export interface EnvironmentRuleInput {
  /** Given for this send: `--env NAME`, or the editor's choice of this session (null: no environment). */
  given?: string | null;
  /** Remembered for the project (null: "No environment" was chosen); undefined when none is kept. */
  remembered?: string | null;
  /** An editor configuration's default (`initializationOptions.environment`): below a remembered choice, above the rest. */
  preferred?: string;
}

/** The rule, pure: `names` are the environments of the project's files. A remembered or preferred name that no longer exists is passed over. */
export function decideEnvironment(names: readonly string[], input: EnvironmentRuleInput): EnvironmentAnswer {
  const list = names.filter((n) => !n.startsWith('$'));
  if (input.given === null) return { state: 'none', why: 'chosen', names: list };
  if (input.given !== undefined) {
    return list.includes(input.given)
      ? { state: 'chosen', name: input.given, why: 'given', names: list }
      : { state: 'unknown', name: input.given, names: list };
  }
  if (list.length === 0) return { state: 'none', why: 'no-environments', names: list };
  if (input.remembered === null) return { state: 'none', why: 'chosen', names: list };
  if (input.remembered !== undefined && list.includes(input.remembered))
    return { state: 'chosen', name: input.remembered, why: 'remembered', names: list };
  if (input.preferred !== undefined && list.includes(input.preferred))
    return { state: 'chosen', name: input.preferred, why: 'default', names: list };
  if (list.length === 1) return { state: 'chosen', name: list[0], why: 'only', names: list };
  if (list.includes('local')) return { state: 'chosen', name: 'local', why: 'local', names: list };
  return { state: 'ask', names: list };
}

/** How an answer reads in a status bar, a log or `lpreq env`: `dev (remembered)`, `no environment (chosen)`. */
export function describeAnswer(answer: EnvironmentAnswer): string {
  switch (answer.state) {
    case 'chosen':
      return `${answer.name} (${
        answer.why === 'given'
          ? 'given'
          : answer.why === 'remembered'
            ? 'chosen for this project'
            : answer.why === 'only'
              ? 'the only environment'
              : answer.why === 'local'
                ? 'local, among several'
                : "the editor's default"
      })`;
    case 'none':
      return answer.why === 'chosen' ? 'no environment (chosen)' : 'no environment (there are none)';
    case 'ask':
      return `none chosen yet (${answer.names.join(', ')}; none is called local)`;
    case 'unknown':
      return `${answer.name} (no such environment)`;
  }
}
