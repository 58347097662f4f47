/**
 * The MCP server: the language core, the sender and the mock as tools for a coding agent,
 * the catalog as resources, and two prompts. Each tool's answer is a short text and a
 * `structuredContent` of its `outputSchema`; input it cannot use is a tool error naming the
 * argument. Every message leaves through the scrubbing transport (transport.ts).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { join } from 'node:path';
import * as z from 'zod';
import { bundledCatalog } from '../catalogData';
import { CODES, createLanguageService, hasOwn, own, setOwn, type LanguageService } from '../core/index';
import { environmentScopes } from '../node/index';
import { VERSION } from '../version';
import { endpointFacts, endpointText, findEndpoint, findResource, resourceFacts, resourceText } from './catalogFacts';
import { checkAnswerText, checkText, requestText, type CheckAnswer } from './check';
import { ToolInputError } from './errors';
import {
  CHECK_FILE_INPUT,
  CHECK_OUTPUT,
  CHECK_REQUEST_INPUT,
  DESCRIBE_ENDPOINT_INPUT,
  DESCRIBE_ENDPOINT_OUTPUT,
  DESCRIBE_RESOURCE_INPUT,
  DESCRIBE_RESOURCE_OUTPUT,
  SEARCH_INPUT,
  SEARCH_OUTPUT,
  TYPE_RESPONSE_INPUT,
  TYPE_RESPONSE_OUTPUT,
} from './schemas';
import { EndpointSearch } from './search';
import { registerSendTools } from './sendTools';
import { ScrubbedStdioTransport, type LineStreams } from './transport';
import type { McpOptions, RegisterTool, ToolContext } from './toolContext';
import { typeAnswerText, typeResponse } from './typeResponse';
import { SecretBook, Workspace } from './workspace';

/** What every tool call may take at most; a send or a test run has its own limits (sendTools.ts). */
const CALL_LIMIT_MS = 10_000;

function toolError(message: string): CallToolResult {
  return { content: [{ type: 'text', text: message }], isError: true };
}

function createServer(options: McpOptions): { server: McpServer; workspace: Workspace; warm: () => void } {
  const secrets = new SecretBook();
  secrets.add([options.env.LPREQ_TOKEN]);
  const workspace = new Workspace(options.root, secrets);
  // The root's environments are booked at once: an answer before any file is read (an error quoting an argument) is scrubbed with them too.
  workspace.environments(join(workspace.root, 'request.lpreq'));
  let made: LanguageService | undefined;
  const service = () => (made ??= createLanguageService(bundledCatalog()));
  let search: EndpointSearch | undefined;
  const server = new McpServer({ name: 'lpreq', title: 'lpreq: the Learning Platform API', version: VERSION }, {
    capabilities: { logging: {} },
    instructions:
      'lpreq knows every endpoint, parameter, rule and resource of the Learning Platform API docs. ' +
      'Find an endpoint with search_endpoints, read it with describe_endpoint, write the request and ' +
      'check it with check_request (apply each fix), send it with send_request (the built-in mock unless ' +
      'an environment is named) and type responses with type_response.',
    // A bound on the arguments of one call, besides the line size of the transport.
    maxToolInputElements: 200_000,
  } as ConstructorParameters<typeof McpServer>[1]);

  const tool = toolRegistrar(server, options, secrets);

  const context: ToolContext = { server, service, workspace, options, tool };

  tool(
    'search_endpoints',
    {
      title: 'Search the API documentation',
      description:
        'Endpoints of the Learning Platform API ranked for what a call should do, by the words of the docs ' +
        '(purpose, path, resource, parameters). Start here, then describe_endpoint.',
      input: SEARCH_INPUT,
      output: SEARCH_OUTPUT,
      readOnly: true,
    },
    ({ query, limit }) => {
      search ??= new EndpointSearch(service().catalog);
      const endpoints = search.search(query, limit ?? 8).map((h) => ({
        id: h.endpoint.id,
        method: h.endpoint.method,
        path: h.endpoint.paths[0].template,
        summary: h.endpoint.purpose,
        returns: h.endpoint.returns,
        score: Math.round(h.score * 100) / 100,
      }));
      const text =
        endpoints.length === 0
          ? `no endpoint's documentation shares a word with '${query}'; try other words`
          : endpoints.map((e) => `${e.method} ${e.path} (${e.id}): ${e.summary}`).join('\n');
      return { text, data: { endpoints } };
    },
  );

  tool(
    'describe_endpoint',
    {
      title: 'Describe an endpoint',
      description:
        'One endpoint as the docs describe it: parameters (type, values, required, the conditional rules in the ' +
        "docs' words), JSON body shape, the resource it returns and its fields, paging, token scope, deprecation, section.",
      input: DESCRIBE_ENDPOINT_INPUT,
      output: DESCRIBE_ENDPOINT_OUTPUT,
      readOnly: true,
    },
    ({ method, path }) => {
      const { catalog, checker } = service();
      const found = findEndpoint(catalog, checker.matcher, method, path);
      const facts = endpointFacts(catalog, found.endpoint, found.template);
      return { text: endpointText(facts), data: facts };
    },
  );

  tool(
    'describe_resource',
    {
      title: 'Describe a resource',
      description:
        'A resource (object) of the docs: its fields with types, enum values and nullability, and the endpoints that return it.',
      input: DESCRIBE_RESOURCE_INPUT,
      output: DESCRIBE_RESOURCE_OUTPUT,
      readOnly: true,
    },
    ({ name }) => {
      const { catalog } = service();
      const facts = resourceFacts(catalog, findResource(catalog, name));
      return { text: resourceText(facts), data: facts };
    },
  );

  registerCheckTools(context);
  registerSendTools(context);
  registerCatalogResources(server, service);
  registerPrompts(server);
  // Made once the server has answered `initialize`: the first call of an agent then finds them ready.
  const warm = () => {
    search ??= new EndpointSearch(service().catalog);
  };
  return { server, workspace, warm };
}

class TimeLimit extends Error {
  constructor(ms: number) {
    super(`the call took longer than its limit of ${ms / 1000} s and was stopped`);
  }
}

/** The checker's environments: the files' variables, the one named (which must exist), their `$scopes`. */
function environmentsFor(
  files: ReturnType<Workspace['environments']>,
  environment: string | undefined,
): Parameters<LanguageService['diagnose']>[1] {
  if (environment !== undefined && !hasOwn(files.environments, environment)) {
    const names = Object.keys(files.environments);
    throw new ToolInputError(
      'environment',
      names.length === 0
        ? `no environment '${environment}': the workspace has no http-client.env.json`
        : `no environment '${environment}'; the environments are ${names.join(', ')}`,
    );
  }
  return { environments: files.environments, selected: environment, scopes: environmentScopes(files).scopes };
}

/** The catalog as resources: one an endpoint path, one a resource. */
function registerCatalogResources(server: McpServer, service: () => LanguageService): void {
  const endpointUri = (method: string, template: string) =>
    `lpreq://endpoints/${method}${template.replace(/[{}]/g, (c) => (c === '{' ? '%7B' : '%7D'))}`;
  server.registerResource(
    'endpoint',
    new ResourceTemplate('lpreq://endpoints/{method}/{+path}', {
      list: () => ({
        resources: service().catalog.endpoints.flatMap((e) =>
          e.paths.map((p) => ({
            uri: endpointUri(e.method, p.template),
            name: `${e.method} ${p.template}`,
            description: e.purpose,
            mimeType: 'application/json',
          })),
        ),
      }),
    }),
    {
      title: 'An endpoint of the docs',
      description: 'describe_endpoint as a resource: lpreq://endpoints/GET/api/v1/courses/%7Bcourse_id%7D/modules',
      mimeType: 'application/json',
    },
    (uri, variables) => {
      const method = String(variables.method);
      const path = `/${decodeURIComponent(String(variables.path))}`;
      const { catalog, checker } = service();
      const found = findEndpoint(catalog, checker.matcher, method, path);
      const facts = endpointFacts(catalog, found.endpoint, found.template);
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(facts) }] };
    },
  );
  server.registerResource(
    'resource',
    new ResourceTemplate('lpreq://resources/{name}', {
      list: () => ({
        resources: [...service().catalog.resources.values()].map((r) => ({
          uri: `lpreq://resources/${r.name}`,
          name: r.name,
          description: r.description,
          mimeType: 'application/json',
        })),
      }),
    }),
    { title: 'A resource of the docs', description: 'describe_resource as a resource', mimeType: 'application/json' },
    (uri, variables) => {
      const { catalog } = service();
      const facts = resourceFacts(catalog, findResource(catalog, decodeURIComponent(String(variables.name))));
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(facts) }] };
    },
  );
}

function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'write_request',
    {
      title: 'Write a request for...',
      description: 'Write a checked .lpreq request (or API call) for a task, grounded in the docs.',
      argsSchema: { task: z.string().max(2000).describe('what the request should do') },
    },
    ({ task }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Write a request to the Learning Platform API that does this: ${task}`,
              '',
              "Use lpreq's tools, not memory: search_endpoints for the endpoint, describe_endpoint for its parameters " +
                'and their rules (a parameter may be required only for some values of another), then write the request ' +
                'as a .lpreq block (METHOD {{base_url}}/api/v1/..., a blank line, then one `name = value` a line, or a JSON ' +
                'body where the endpoint takes one). Check it with check_request and apply each fix until it is clean. ' +
                'Try it with send_request against the built-in mock before any real environment.',
            ].join('\n'),
          },
        },
      ],
    }),
  );
  server.registerPrompt(
    'explain_diagnostic',
    {
      title: 'Explain this diagnostic',
      description: 'What a diagnostic of lpreq means and how to fix it.',
      argsSchema: {
        code: z.string().max(100).describe('the diagnostic code: missing-required, invalid-enum...'),
        message: z.string().max(2000).optional().describe('the message as lpreq gave it'),
      },
    },
    ({ code, message }) => {
      const entry = own(CODES, code);
      const meaning = entry
        ? `${entry.title} (${entry.severity}): ${entry.help}`
        : `'${code}' is not a code of lpreq; the codes are ${Object.keys(CODES).join(', ')}.`;
      return {
        messages: [
          {
            role: 'user',
            content: {
              type: 'text',
              text: [
                `Explain this lpreq diagnostic and how to fix the request: ${code}${message ? `: ${message}` : ''}`,
                '',
                `What lpreq's documentation of the code says: ${meaning}`,
                '',
                "Ground the explanation in the endpoint's documentation (describe_endpoint), and check the fixed request with check_request.",
              ].join('\n'),
            },
          },
        ],
      };
    },
  );
}

/** Starts the server on standard input and output; resolves when the client goes away. */
export async function serveStdio(options: McpOptions, streams: LineStreams): Promise<void> {
  const { server, workspace, warm } = createServer(options);
  // What a message carries (a result, an error, a notification's params); the envelope is the protocol's.
  const scrub = (message: JSONRPCMessage): JSONRPCMessage => {
    const out: Record<string, unknown> = { ...message };
    for (const key of ['result', 'error', 'params'])
      if (hasOwn(out, key)) setOwn(out, key, workspace.secrets.deep(own(out, key)));
    return out as JSONRPCMessage;
  };
  const transport = new ScrubbedStdioTransport(streams, scrub);
  transport.onerror = (e) => options.log(workspace.secrets.text(`lpreq mcp: ${e.message}`));
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  await server.connect(transport);
  server.server.oninitialized = () => setImmediate(warm);
  await closed;
}

/** How each tool is registered: its schemas and annotations, a time limit, and errors as tool errors (an internal one logged, scrubbed). */
function toolRegistrar(server: McpServer, options: McpOptions, secrets: SecretBook): RegisterTool {
  return (name, config, run, limitMs = CALL_LIMIT_MS) => {
    server.registerTool(
      name,
      {
        title: config.title,
        description: config.description,
        inputSchema: config.input,
        outputSchema: config.output,
        annotations: {
          readOnlyHint: config.readOnly,
          openWorldHint: config.openWorld ?? false,
          idempotentHint: config.readOnly,
        },
      },
      (async (args: z.infer<z.ZodObject<typeof config.input>>): Promise<CallToolResult> => {
        const signal = AbortSignal.timeout(limitMs);
        try {
          const answer = await Promise.race([
            Promise.resolve(run(args, signal)),
            new Promise<never>((_, reject) =>
              signal.addEventListener('abort', () => reject(new TimeLimit(limitMs)), { once: true }),
            ),
          ]);
          return {
            content: [{ type: 'text', text: answer.text }],
            structuredContent: answer.data as Record<string, unknown>,
          };
        } catch (e) {
          if (e instanceof ToolInputError || e instanceof TimeLimit) return toolError(e.message);
          options.log(secrets.text(`lpreq mcp: ${name}: internal error: ${(e as Error).stack ?? String(e)}`));
          return toolError(`${name} failed: ${(e as Error).message}`);
        }
      }) as never,
    );
  };
}

/** check_request, check_file and type_response: the language service's diagnostics and the sender's typed check. */
function registerCheckTools(ctx: ToolContext): void {
  const { tool } = ctx;
  tool(
    'check_request',
    {
      title: 'Check a request',
      description:
        "lpreq's diagnostics (code, severity, line, message, the fix as edits) of a .lpreq request given as `text`, " +
        "or of a request an agent's code makes, given as `method`, `url` and `params` or `json`. Check again after a fix.",
      input: CHECK_REQUEST_INPUT,
      output: CHECK_OUTPUT,
      readOnly: true,
    },
    (args) => {
      const hasParts = args.method !== undefined || args.url !== undefined;
      if (args.text !== undefined && hasParts)
        throw new ToolInputError('text', 'give the request as text, or as method and url, not both');
      if (args.text === undefined && !hasParts)
        throw new ToolInputError('text', 'give the request as text, or as method and url');
      if (args.text === undefined && (args.method === undefined || args.url === undefined))
        throw new ToolInputError(
          args.method === undefined ? 'method' : 'url',
          'a request given by its parts needs both method and url',
        );
      const text =
        args.text ??
        requestText({ method: args.method ?? '', url: args.url ?? '', params: args.params, json: args.json });
      const files = ctx.workspace.environments(join(ctx.workspace.root, 'request.lpreq'));
      const env = environmentsFor(files, args.environment);
      const answer: CheckAnswer = {
        ...checkText(ctx.service(), text, env),
        ...(args.text === undefined ? { text } : {}),
      };
      return { text: checkAnswerText(answer, 'the request'), data: answer };
    },
  );

  tool(
    'check_file',
    {
      title: 'Check a request file',
      description: "lpreq's diagnostics of a .lpreq file of the workspace, with the environments beside it.",
      input: CHECK_FILE_INPUT,
      output: CHECK_OUTPUT,
      readOnly: true,
    },
    ({ path, environment }) => {
      const file = ctx.workspace.read(path, 'path');
      const env = environmentsFor(ctx.workspace.environments(file.absolute), environment);
      const answer = { file: ctx.workspace.display(file.absolute), ...checkText(ctx.service(), file.text, env) };
      return { text: checkAnswerText(answer, answer.file), data: answer };
    },
  );

  tool(
    'type_response',
    {
      title: 'Type a response',
      description:
        'The typed issues of a response body against the resource its endpoint returns: undocumented fields, wrong ' +
        'types, values outside an enum.',
      input: TYPE_RESPONSE_INPUT,
      output: TYPE_RESPONSE_OUTPUT,
      readOnly: true,
    },
    (args) => {
      const answer = typeResponse(ctx.service().catalog, ctx.service().checker.matcher, args);
      return { text: typeAnswerText(answer), data: answer };
    },
  );
}
