/**
 * Text of response nodes for copying and documentation. Kept apart from the tree (and
 * free of imports) so that the view loads it at activation without the sender.
 */
import type { DocumentedType, ResponseIssue } from '../../../server/src/sender/index';
import { own } from '../../../server/src/core/index';

/** The text copied by "Copy Value": strings as they are, everything else as JSON. */
export function copyText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value, null, 2);
}

/** The documentation of a documented type as Markdown (tooltip and "Show Documentation"). */
export function documentationMarkdown(
  label: string,
  doc: DocumentedType | undefined,
  issues: readonly ResponseIssue[] = [],
): string {
  const lines: string[] = [];
  if (doc) {
    lines.push(
      `**${label}**: \`${doc.type}\`${doc.nullable ? ' (nullable)' : ''}${doc.optional ? ' (optional)' : ''}${doc.deprecated ? ' **deprecated**' : ''}`,
    );
    if (doc.resource) lines.push(`Field of \`${doc.resource}\`.`);
    if (doc.description) lines.push(doc.description);
    if (doc.note) lines.push(doc.note);
    if (doc.enum && doc.enum.length > 0) {
      lines.push('Documented values:');
      for (const v of doc.enum) {
        const meaning = own(doc.enumDescriptions, v);
        lines.push(`- \`${v}\`${meaning ? `: ${meaning}` : ''}`);
      }
    }
  } else {
    lines.push(`**${label}**: not described by the documentation.`);
  }
  for (const i of issues) lines.push(`$(warning) ${i.code}: ${i.message}`);
  return lines.join('\n\n');
}
