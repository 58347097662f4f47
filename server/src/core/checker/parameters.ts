/** The checks of the parameters sent: each against its documentation, then the requirements and rules of the endpoint. */
import type { CatalogParameter } from '../catalog/catalog';
import { findParameter, LEFT_PATTERN, suggestionNames } from '../catalog/parameters';
import { outsideEnum, splitParamName } from '../catalog/parameterText';
import type { ParameterLine } from '../parser';
import { closest, enumSuggestions } from '../suggest';
import { formatProblem, typeProblem } from '../values';
import { diag } from './diagnostics';
import { brief, choices, documented, endpointFact, fit, quote } from './phrases';
import type { RequestCheck } from './context';
import { RuleContext, type SentParameter } from '../rules/context';
import { applyRule } from '../rules';

export function checkParameters(
  check: RequestCheck,
  params: ParameterLine[],
  /** False when the body comes from a file: what is missing or conflicting cannot be known. */
  requirements = true,
) {
  const { endpoint, bindings: bound, label, lineStart, lineEnd, out } = check;
  /** Sent parameters by catalog name (a pattern's name for pattern parameters), in order. */
  const sent = new Map<string, SentParameter<CatalogParameter>[]>();
  for (let i = 0; i < params.length; i++) {
    const line = params[i];
    const name = line.decodedName;
    const param = findParameter(endpoint, name);
    if (!param) {
      reportUnknown(check, line);
      continue;
    }
    const key = param.name;
    const list = sent.get(key);
    // A name with `[]` is an array element (`question[answers][][answer_text]`, an index pattern written as convention 2 writes arrays).
    const repeated =
      list !== undefined && !param.isArray && !name.includes('[]') && list.some((e) => e.line.decodedName === name);
    if (list) list.push({ line, param });
    else sent.set(key, [{ line, param }]);
    if (repeated) {
      out.push(
        diag(
          'duplicate-parameter',
          fit(
            `${name} takes one value and is given again: remove one`,
            'this takes one value and is given again: remove one',
          ),
          line.name.start,
          line.name.end,
          {
            lineStart: line.start,
            lineEnd: line.end,
          },
          ['Only one of the values is read.', endpointFact(label)],
        ),
      );
    }
    if (param.deprecated) {
      const successor = typeof param.deprecated === 'object' ? param.deprecated.successor : undefined;
      out.push(
        diag(
          'deprecated',
          successor
            ? fit(`${name} is deprecated: use ${successor}`, `deprecated: use ${successor}`)
            : fit(`${name} is deprecated`, 'this parameter is deprecated'),
          line.name.start,
          line.name.end,
          successor ? { replacement: successor } : undefined,
          [
            param.description && !/^deprecated\.?$/i.test(param.description)
              ? documented(param.description)
              : undefined,
            endpointFact(label),
          ],
        ),
      );
    }
    checkValue(check, line, param);
  }
  if (!requirements) return;
  // Unconditional requirements; a value the path carries satisfies its parameter.
  let missing: string[] = NO_NAMES;
  for (let i = 0; i < endpoint.requiredParams.length; i++) {
    const p = endpoint.requiredParams[i];
    if (sent.has(p.name)) continue;
    if (bound.has(p.name) || (p.inPath && bound.has(p.inPath))) continue;
    // A deprecated alias (`role` for `label`) is the same parameter under its old name: reported as deprecated, not as missing.
    if (
      endpoint.params.some(
        (q) => typeof q.deprecated === 'object' && q.deprecated.successor === p.name && sent.has(q.name),
      )
    )
      continue;
    if (missing === NO_NAMES) missing = [];
    missing.push(p.name);
  }
  if (missing.length === 0 && endpoint.rules.length === 0) return;
  const reportedMissing = new Set<string>(missing);
  for (const name of missing) {
    const p = endpoint.params.find((x) => x.name === name);
    out.push(
      diag(
        'missing-required',
        fit(`${name} is required: add it`, 'a required parameter is missing: add it'),
        lineStart,
        lineEnd,
        {
          missing: [name],
          endpointId: endpoint.id,
        },
        [documented(p?.description), endpointFact(label)],
      ),
    );
  }
  if (endpoint.rules.length === 0) return;
  const context = new RuleContext(check, sent, reportedMissing);
  for (let i = 0; i < endpoint.rules.length; i++) applyRule(endpoint.rules[i], context);
}

/** A parameter the endpoint does not document: the closest documented name, or what was most likely meant. */
function reportUnknown(check: RequestCheck, line: ParameterLine) {
  const { endpoint, label, out } = check;
  const name = line.decodedName;
  // A name made of a variable (`?{{query}}`, `{{field}} = 1`) is not known when checking, nor is
  // what a variable in a JSON body holds where an object goes (`"column": {{column}}`).
  const objectFromVariable =
    line.source === 'json' &&
    line.decodedValue.startsWith('{{') &&
    endpoint.params.some((p) => p.name.startsWith(`${name}[`));
  if (line.source === 'body' && name.startsWith('@')) {
    // Meant as a file variable, most likely; in a request body it is a parameter (section 1).
    out.push(
      diag(
        'unknown-parameter',
        fit(
          `${name} is sent as a parameter: a file variable goes above the request line`,
          'this is sent as a parameter: a file variable goes above the request line',
        ),
        line.name.start,
        line.name.end,
        { lineStart: line.start, lineEnd: line.end },
        ['A file variable (@name = value) stands outside a request body.', endpointFact(label)],
      ),
    );
  } else if (!endpoint.paramsNotShown && !name.includes('{{') && !objectFromVariable) {
    const near = closest(name, suggestionNames(endpoint, name));
    const replacement = near && line.source === 'json' ? jsonKeyReplacement(name, near) : near;
    const left = splitParamName(name)?.find((seg) => LEFT_PATTERN.test(seg));
    const what = line.source === 'json' ? 'key' : 'parameter';
    out.push(
      diag(
        'unknown-parameter',
        left
          ? fit(
              `${left} in ${name} is the documentation's placeholder: write the name it stands for`,
              `${left} is the documentation's placeholder: write the name it stands for`,
            )
          : near
            ? fit(
                `${name} is not a documented ${what}: did you mean ${near}?`,
                `not a documented ${what}: did you mean ${near}?`,
              )
            : fit(`${name} is not a documented ${what} of this endpoint`, `not a documented ${what} of this endpoint`),
        line.name.start,
        line.name.end,
        replacement
          ? { replacement, lineStart: line.start, lineEnd: line.end }
          : { lineStart: line.start, lineEnd: line.end },
        [endpointFact(label)],
      ),
    );
  }
}

function checkValue(check: RequestCheck, line: ParameterLine, param: CatalogParameter) {
  const { label, out } = check;
  const value = line.decodedValue;
  if (value.includes('{{')) return;
  if (param.nullable && (value === '' || value === 'null')) return;
  if (param.enum && (!param.enumOpen || outsideEnum(param, value))) {
    if (outsideEnum(param, value)) {
      const at = valueRange(line);
      const data = { lineStart: line.start, lineEnd: line.end };
      const { closest: near, others } = enumSuggestions(value, param.enum);
      const shown = value === '' ? 'an empty value' : quote(value);
      out.push(
        diag(
          'invalid-enum',
          near
            ? fit(
                `${shown} is not a value of ${line.decodedName}: did you mean ${near}?`,
                `${shown} is not a documented value: did you mean ${near}?`,
              )
            : fit(
                `${shown} is not a value of ${line.decodedName}: use ${choices(param.enum)}`,
                `${shown} is not a documented value of ${line.decodedName}`,
                `${shown} is not a documented value`,
              ),
          at.start,
          at.end,
          {
            ...data,
            ...(near !== undefined ? { replacement: near } : {}),
            ...(others.length > 0 ? { choices: others } : {}),
          },
          [`Documented values of ${line.decodedName}: ${param.enum.join(', ')}`, endpointFact(label)],
        ),
      );
    }
    return;
  }
  // An empty value is sent as an empty string: not an integer, a boolean or a date. Where the
  // docs let an empty value clear a field (planner note update's course_id), the parameter is nullable.
  const typeMsg = typeProblem(param.type, value, param.sisForms);
  if (typeMsg) {
    const at = valueRange(line);
    // A `+` in a query string is sent as a space (`+02:00` arrives as ` 02:00`).
    const plus = line.source === 'query' && line.value.text.includes('+');
    out.push(
      diag(
        'invalid-type',
        plus
          ? fit(
              `${quote(value, 30)} is not ${brief(typeMsg)}: in a query string '+' is a space, write %2B`,
              `not ${brief(typeMsg)}: in a query string '+' is a space, write %2B`,
            )
          : fit(
              `${line.decodedName} must be ${typeMsg}, not ${quote(value, 30)}`,
              `${line.decodedName} must be ${brief(typeMsg)}, not ${quote(value, 30)}`,
              `${quote(value, 30)} is not ${brief(typeMsg)}`,
            ),
        at.start,
        at.end,
        {
          lineStart: line.start,
          lineEnd: line.end,
        },
        [`${line.decodedName} takes ${typeMsg}`, endpointFact(label)],
      ),
    );
    return;
  }
  if (param.format) {
    const formatMsg = formatProblem(param.format, value, param.contextTypes);
    if (formatMsg) {
      const at = valueRange(line);
      out.push(
        diag(
          'invalid-format',
          fit(
            `${line.decodedName} must be ${formatMsg}, not ${quote(value, 30)}`,
            `${line.decodedName} must be ${brief(formatMsg)}, not ${quote(value, 30)}`,
            `${quote(value, 30)} is not ${brief(formatMsg)}`,
          ),
          at.start,
          at.end,
          {
            lineStart: line.start,
            lineEnd: line.end,
          },
          [`${line.decodedName} takes ${formatMsg}`, endpointFact(label)],
        ),
      );
    }
  }
}

/** In a JSON body the name's range is its last key: the fix replaces that key alone, when the rest agrees. */
function jsonKeyReplacement(name: string, near: string): string | undefined {
  const a = splitParamName(name);
  const b = splitParamName(near);
  if (!a || !b || a.length !== b.length || a.slice(0, -1).join('\u0000') !== b.slice(0, -1).join('\u0000'))
    return undefined;
  return b[b.length - 1];
}

/** Shared by the requests that miss nothing (never written to). */
const NO_NAMES: string[] = [];

/** Where a value's diagnostic goes: the value, or the whole line when the value is empty. */
function valueRange(line: ParameterLine): { start: number; end: number } {
  return line.value.end > line.value.start ? line.value : { start: line.name.start, end: line.end };
}
