import type { Metadata } from "next";
import { requireAccountPage } from "@/lib/auth/require-permission";
import { buildOpenApiDocument, OPENAPI_PATH } from "@/lib/api/openapi/openapi-document";
import { describeFields, exampleBody, refName, type FieldRow, type JsonSchema } from "@/lib/dashboard/describe-schema";
import { getEnv } from "@/lib/env";
import { PageHeader } from "@/components/ui/page-header";
import { Card } from "@/components/ui/card";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { cn } from "@/components/ui/cn";

export const metadata: Metadata = { title: "API reference" };

type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: ({ $ref: string } | { name: string; in: string; required?: boolean; description?: string })[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
};

const methodTone: Record<string, BadgeTone> = { get: "blue", post: "green", delete: "red", put: "amber", patch: "amber" };

function schemaOf(content: Record<string, { schema: JsonSchema }> | undefined): JsonSchema | undefined {
  return content?.["application/json"]?.schema;
}

function TypeText({ row }: { row: FieldRow }) {
  return row.type.ref ? (
    <a href={`#schema-${row.type.ref}`} className="text-brand-700 hover:underline">
      {row.type.text}
    </a>
  ) : (
    <>{row.type.text}</>
  );
}

function Fields({ rows }: { rows: FieldRow[] }) {
  if (rows.length === 0) return <p className="text-sm text-slate-500">No fields.</p>;
  return (
    <dl className="divide-y divide-slate-100 rounded-lg border border-slate-200">
      {rows.map((row) => (
        <div key={row.name} className="grid gap-1 px-4 py-2.5 text-sm sm:grid-cols-[14rem_1fr]">
          <dt>
            <code className="font-mono text-xs font-semibold text-slate-900">{row.name}</code>
            {row.required && <span className="ml-2 text-[11px] font-medium text-red-600">required</span>}
            <p className="font-mono text-[11px] text-slate-500">
              <TypeText row={row} />
            </p>
          </dt>
          <dd className="text-slate-600">
            {row.description ?? <span className="text-slate-400">—</span>}
            {row.example && (
              <p className="mt-0.5 text-xs text-slate-400">
                Example: <code className="font-mono">{row.example}</code>
              </p>
            )}
          </dd>
        </div>
      ))}
    </dl>
  );
}

function resolve(schema: JsonSchema | undefined, components: Record<string, JsonSchema>): { name?: string; schema?: JsonSchema } {
  if (!schema?.$ref) return { schema };
  const name = refName(schema.$ref);
  return { name, schema: components[name] };
}

export default async function ApiReferencePage() {
  await requireAccountPage("account.view");
  const document = buildOpenApiDocument() as unknown as {
    info: { title: string; version: string; description: string };
    tags: { name: string; description: string }[];
    paths: Record<string, Record<string, Operation>>;
    components: { schemas: Record<string, JsonSchema>; securitySchemes: { bearerAuth: { description: string } } };
  };
  const { schemas } = document.components;
  const baseUrl = getEnv().NEXTAUTH_URL.replace(/\/$/, "");
  const operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({ path, method, operation })),
  );
  return (
    <>
      <PageHeader
        title="API reference"
        description={
          <>
            {document.info.title} {document.info.version}. The machine-readable document is at{" "}
            <a className="font-mono text-brand-700 hover:underline" href={OPENAPI_PATH}>
              {OPENAPI_PATH}
            </a>
            .
          </>
        }
      />
      <div className="grid gap-8 lg:grid-cols-[13rem_minmax(0,1fr)]">
        <nav aria-label="Endpoints" className="space-y-5 text-sm lg:sticky lg:top-6 lg:self-start">
          {document.tags.map((tag) => (
            <div key={tag.name}>
              <p className="text-[11px] font-semibold tracking-wider text-slate-400 uppercase">{tag.name}</p>
              <ul className="mt-1.5 space-y-1">
                {operations
                  .filter(({ operation }) => operation.tags.includes(tag.name))
                  .map(({ operation }) => (
                    <li key={operation.operationId}>
                      <a className="text-slate-600 hover:text-slate-900" href={`#${operation.operationId}`}>
                        {operation.summary}
                      </a>
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </nav>
        <div className="min-w-0 space-y-8">
          <Card className="p-5 text-sm text-slate-600">
            <p>{document.info.description}</p>
            <p className="mt-3">
              <span className="font-medium text-slate-900">Authentication.</span>{" "}
              {document.components.securitySchemes.bearerAuth.description.replaceAll("`", "")}
            </p>
            <p className="mt-3">
              <span className="font-medium text-slate-900">Base URL.</span> <code className="font-mono text-xs">{baseUrl}</code>
            </p>
          </Card>
          {operations.map(({ path, method, operation }) => {
            const request = resolve(schemaOf(operation.requestBody?.content), schemas);
            const curlBody = request.schema
              ? ` \\\n  -H "Content-Type: application/json" \\\n  -d '${JSON.stringify(exampleBody(request.schema))}'`
              : "";
            const curl = `curl -X ${method.toUpperCase()} ${baseUrl}${path} \\\n  -H "Authorization: Bearer $TUMIRA_API_KEY"${curlBody}`;
            const parameters = (operation.parameters ?? []).filter(
              (parameter): parameter is { name: string; in: string; required?: boolean; description?: string } => "name" in parameter,
            );
            return (
              <section key={operation.operationId} id={operation.operationId} className="scroll-mt-6" data-testid="api-operation">
                <Card>
                  <div className="border-b border-slate-100 px-5 py-4">
                    <h2 className="text-base font-semibold text-slate-900">{operation.summary}</h2>
                    <p className="mt-1.5 flex flex-wrap items-center gap-2">
                      <Badge tone={methodTone[method] ?? "gray"} className="font-mono uppercase">
                        {method}
                      </Badge>
                      <code className="font-mono text-sm text-slate-800">{path}</code>
                    </p>
                    {operation.description && <p className="mt-2 text-sm text-slate-600">{operation.description}</p>}
                  </div>
                  <div className="space-y-5 px-5 py-4">
                    {parameters.length > 0 && (
                      <div>
                        <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Path parameters</h3>
                        <Fields
                          rows={parameters.map((parameter) => ({
                            name: parameter.name,
                            type: { text: "string (uuid)" },
                            required: parameter.required ?? false,
                            description: parameter.description,
                          }))}
                        />
                      </div>
                    )}
                    {request.schema && (
                      <div>
                        <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
                          Request body {request.name && <span className="font-mono normal-case">({request.name})</span>}
                        </h3>
                        <Fields rows={describeFields(request.schema)} />
                      </div>
                    )}
                    <div>
                      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Responses</h3>
                      <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
                        {Object.entries(operation.responses).map(([status, response]) => {
                          const body = resolve(schemaOf(response.content), schemas);
                          return (
                            <li key={status} className="flex flex-wrap gap-x-3 gap-y-1 px-4 py-2.5">
                              <span
                                className={cn(
                                  "w-10 font-mono font-semibold",
                                  Number(status) < 300 ? "text-emerald-700" : Number(status) < 500 ? "text-amber-700" : "text-red-700",
                                )}
                              >
                                {status}
                              </span>
                              <span className="min-w-0 flex-1 text-slate-600">{response.description.replaceAll("`", "")}</span>
                              {body.name && (
                                <a href={`#schema-${body.name}`} className="font-mono text-xs text-brand-700 hover:underline">
                                  {body.name}
                                </a>
                              )}
                            </li>
                          );
                        })}
                      </ul>
                    </div>
                    <div>
                      <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">Example</h3>
                      <pre className="overflow-x-auto rounded-lg bg-slate-900 p-4 font-mono text-xs leading-relaxed text-slate-100">
                        {curl}
                      </pre>
                    </div>
                  </div>
                </Card>
              </section>
            );
          })}
          <section>
            <h2 className="mb-3 text-lg font-semibold text-slate-900">Schemas</h2>
            <div className="space-y-4">
              {Object.entries(schemas).map(([name, schema]) => (
                <Card key={name} id={`schema-${name}`} className="scroll-mt-6 p-5">
                  <h3 className="font-mono text-sm font-semibold text-slate-900">{name}</h3>
                  {schema.description && <p className="mt-1 text-sm text-slate-600">{schema.description}</p>}
                  <div className="mt-3">
                    <Fields rows={describeFields(schema)} />
                  </div>
                </Card>
              ))}
            </div>
          </section>
        </div>
      </div>
    </>
  );
}
