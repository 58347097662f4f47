/**
 * Request templates: whole titled requests to start from, offered where a request begins (a
 * word typed at the start of a line above any request line), and nowhere else. They were
 * the editor's snippets, which VS Code offers at every word, a parameter's value included.
 */
import { rank, type CompletionEntry } from './items';

interface Template {
  label: string;
  /** The words it is found by (`get`, `modules`). */
  prefix: string;
  detail: string;
  /** A snippet: tab stops in order, `$0` last. */
  body: string[];
}

const TEMPLATES: readonly Template[] = [
  {
    label: 'Request (GET)',
    prefix: 'get',
    detail: 'A titled GET request against {{base_url}}',
    body: [
      '### ${1:List modules}',
      'GET {{base_url}}/api/v1/${2:courses/{{course_id\\}\\}/modules}',
      'Accept: application/json',
      '$0',
    ],
  },
  {
    label: 'Request (POST, form parameters)',
    prefix: 'post',
    detail: 'A titled POST request with form parameters',
    body: [
      '### ${1:Create a module}',
      '# @name ${2:createModule}',
      'POST {{base_url}}/api/v1/${3:courses/{{course_id\\}\\}/modules}',
      '',
      '${4:module[name]} = ${5:Week 1}',
      '$0',
    ],
  },
  {
    label: 'Request (POST, JSON body)',
    prefix: 'postjson json',
    detail: 'A titled POST request with a JSON body',
    body: [
      '### ${1:Create a webhook subscription}',
      'POST {{base_url}}/api/lti/${2:subscriptions}',
      'Content-Type: application/json',
      '',
      '{',
      '  "${3:subscription}": {',
      '    $0',
      '  }',
      '}',
    ],
  },
  {
    label: 'Request (PUT)',
    prefix: 'put',
    detail: 'A titled PUT request with form parameters',
    body: [
      '### ${1:Update a module}',
      'PUT {{base_url}}/api/v1/${2:courses/{{course_id\\}\\}/modules/${3:1}}',
      '',
      '${4:module[published]} = ${5:true}',
      '$0',
    ],
  },
  {
    label: 'Request (DELETE)',
    prefix: 'delete',
    detail: 'A titled DELETE request',
    body: [
      '### ${1:Delete a module}',
      'DELETE {{base_url}}/api/v1/${2:courses/{{course_id\\}\\}/modules/${3:1}}',
      '$0',
    ],
  },
  {
    label: 'List modules with items',
    prefix: 'modules',
    detail: 'GET the modules of a course, with their items',
    body: [
      '### Modules of a course',
      'GET {{base_url}}/api/v1/courses/${1:{{course_id\\}\\}}/modules',
      '',
      'include[] = items',
      'per_page = ${2:50}',
      '$0',
    ],
  },
  {
    label: 'Create a module item',
    prefix: 'moduleitem',
    detail: 'POST a new item into a module',
    body: [
      '### Create a module item',
      '# @name ${1:createItem}',
      'POST {{base_url}}/api/v1/courses/${2:{{course_id\\}\\}}/modules/${3:1}/items',
      '',
      'module_item[type] = ${4|Assignment,File,Page,Discussion,Quiz,SubHeader,ExternalUrl,ExternalTool|}',
      'module_item[content_id] = ${5:123}',
      '$0',
    ],
  },
];

/** The templates, replacing [start, end) (the word typed); after the methods, which a request line starts with. */
export function completeTemplates(start: number, end: number, out: CompletionEntry[]): void {
  TEMPLATES.forEach((t, i) => {
    out.push({
      label: t.label,
      kind: 'template',
      detail: t.detail,
      documentation: `\`\`\`lpreq\n${t.body
        .join('\n')
        .replace(/\$\{\d+:((?:[^{}]|\{\{[^}]*\\\}\\\})*)\}/g, '$1')
        .replace(/\$\{\d+\|([^,|]*)[^}]*\}|\$\d/g, '$1')
        .replace(/\\([\\$}])/g, '$1')}\n\`\`\``,
      insertText: t.body.join('\n'),
      snippet: true,
      start,
      end,
      sortText: rank(1, i),
      filterText: t.prefix,
    });
  });
}
