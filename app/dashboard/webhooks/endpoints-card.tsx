"use client";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { Field, Input, submitHandler } from "@/components/ui/field";
import { Table, Td, Th } from "@/components/ui/table";
import { notifyOutcome, useToast } from "@/components/ui/toaster";
import { Time } from "@/components/time";
import { useFieldErrors } from "@/components/ui/use-field-errors";
import {
  createEndpointAction,
  deleteEndpointAction,
  redeliverEndpointDeliveryAction,
  rotateEndpointAction,
  sendTestEventAction,
  setThresholdAction,
} from "./actions";
import { fetchJson } from "@/lib/dashboard/fetch-json";
import { MAX_WEBHOOK_ENDPOINTS } from "@/lib/webhooks/limits";
import { WebhookDeliveryStatus } from "@/components/status-badge";
import type { EndpointRow } from "@/lib/dashboard/webhook-endpoint-rows";

/** Often enough that a test event's outcome shows while one looks at it; only while a delivery is pending. */
const POLL_MS = 1_500;

const EVENT_TYPES = [
  ["message.status", "Each status change of any message of the account"],
  ["message.received", "An inbound message to one of the account's numbers"],
  ["opt_out.changed", "A number added to or removed from the opt-out list"],
  ["balance.low", "The balance fell below the threshold (once per crossing)"],
] as const;

export function EndpointsCard({
  initial,
  canManage,
  canRedeliver,
  threshold,
}: {
  initial: EndpointRow[];
  canManage: boolean;
  canRedeliver: boolean;
  threshold: string;
}) {
  const notify = useToast();
  const router = useRouter();
  const queryClient = useQueryClient();
  const [pending, startTransition] = useTransition();
  const [secret, setSecret] = useState<{ title: string; value: string } | null>(null);
  const endpointErrors = useFieldErrors();
  const thresholdErrors = useFieldErrors();
  const [confirmDelete, setConfirmDelete] = useState<string | null>(null);
  const [confirmRotate, setConfirmRotate] = useState<string | null>(null);
  const { data: endpoints = initial, refetch } = useQuery({
    queryKey: ["webhook-endpoints"],
    queryFn: () => fetchJson<EndpointRow[]>("/api/dashboard/webhooks"),
    initialData: initial,
    refetchInterval: (query) =>
      query.state.data?.some((endpoint) => endpoint.deliveries.some((delivery) => delivery.status === "pending")) ? POLL_MS : false,
  });

  function run(work: () => Promise<void>) {
    startTransition(async () => {
      await work();
      await queryClient.invalidateQueries({ queryKey: ["webhook-endpoints"] });
      router.refresh();
    });
  }

  const create = submitHandler((form) =>
    run(async () => {
      const result = await createEndpointAction({ url: String(form.get("url") ?? ""), events: form.getAll("events").map(String) });
      if (!endpointErrors.accepted(result)) return;
      setSecret({ title: "Endpoint created", value: result.data.secret });
    }),
  );

  const saveThreshold = submitHandler((form) => {
    // Enter in the field submits the form; a reader's read-only threshold has no change to send.
    if (!canManage) return;
    run(async () => {
      const result = await setThresholdAction({ threshold: String(form.get("threshold") ?? "") });
      if (thresholdErrors.accepted(result)) notify("success", "Low-balance threshold saved");
    });
  });

  return (
    <Card data-testid="webhook-endpoints">
      <CardHeader
        title="Endpoints"
        description="Account-wide webhooks: every event of the chosen types is posted to the endpoint, signed with its own secret (Standard Webhooks)."
        actions={
          <Button variant="secondary" size="sm" onClick={() => refetch()} disabled={pending}>
            Refresh
          </Button>
        }
      />
      <CardBody className="space-y-6">
        {endpoints.length === 0 && <p className="text-sm text-slate-500">No endpoints yet.</p>}
        {endpoints.map((endpoint) => (
          <div key={endpoint.id} className="space-y-3 rounded-lg border border-slate-200 p-4" data-testid="webhook-endpoint">
            <div className="flex flex-wrap items-start justify-between gap-2">
              <div className="min-w-0">
                <p className="font-mono text-sm break-all text-slate-900" data-testid="webhook-endpoint-url">
                  {endpoint.url}
                </p>
                <p className="mt-1 flex flex-wrap gap-1">
                  {endpoint.events.map((event) => (
                    <Badge key={event}>{event}</Badge>
                  ))}
                </p>
                {endpoint.previousSecretExpiresAt && (
                  <p className="mt-1 text-xs text-slate-500">
                    The previous secret also signs until <Time value={endpoint.previousSecretExpiresAt} seconds />.
                  </p>
                )}
              </div>
              {canManage && (
                <div className="flex flex-wrap gap-2">
                  <Button
                    variant="secondary"
                    size="sm"
                    disabled={pending}
                    onClick={() =>
                      run(async () => {
                        const result = await sendTestEventAction({ id: endpoint.id });
                        notifyOutcome(notify, result, "Test event queued");
                      })
                    }
                  >
                    Send test event
                  </Button>
                  <Button variant="secondary" size="sm" disabled={pending} onClick={() => setConfirmRotate(endpoint.id)}>
                    Rotate secret
                  </Button>
                  <Button variant="danger" size="sm" disabled={pending} onClick={() => setConfirmDelete(endpoint.id)}>
                    Delete
                  </Button>
                </div>
              )}
            </div>
            <Table>
              <thead>
                <tr>
                  <Th>Event</Th>
                  <Th>Status</Th>
                  <Th>Attempts</Th>
                  <Th />
                </tr>
              </thead>
              <tbody>
                {endpoint.deliveries.length === 0 && (
                  <tr>
                    <Td colSpan={4} className="text-slate-500">
                      No deliveries yet.
                    </Td>
                  </tr>
                )}
                {endpoint.deliveries.map((delivery) => (
                  <tr key={delivery.id} data-testid="webhook-endpoint-delivery">
                    <Td>
                      <code className="font-mono text-xs">{delivery.eventType}</code>
                      <div className="text-xs text-slate-500">
                        <Time value={delivery.createdAt} seconds />
                      </div>
                    </Td>
                    <Td>
                      <WebhookDeliveryStatus status={delivery.status} />
                    </Td>
                    <Td>
                      <ul className="space-y-0.5 text-xs text-slate-600">
                        {delivery.attempts.map((attempt, index) => (
                          <li key={index} data-testid="webhook-endpoint-attempt">
                            <Time value={attempt.attemptedAt} seconds />: {attempt.statusCode ?? "no response"}
                            {attempt.error ? ` (${attempt.error})` : ""}, {attempt.latencyMs} ms
                          </li>
                        ))}
                      </ul>
                    </Td>
                    <Td className="text-right">
                      {canRedeliver && delivery.status !== "pending" && (
                        <Button
                          variant="secondary"
                          size="sm"
                          disabled={pending}
                          onClick={() =>
                            run(async () => {
                              const result = await redeliverEndpointDeliveryAction({ deliveryId: delivery.id });
                              notifyOutcome(notify, result, "Queued for redelivery");
                            })
                          }
                        >
                          Redeliver
                        </Button>
                      )}
                    </Td>
                  </tr>
                ))}
              </tbody>
            </Table>
          </div>
        ))}

        {canManage && endpoints.length >= MAX_WEBHOOK_ENDPOINTS && (
          <p className="border-t border-slate-100 pt-4 text-sm text-slate-600" data-testid="webhook-endpoint-cap">
            This account has {MAX_WEBHOOK_ENDPOINTS} endpoints, the most it may hold. Delete one to add another.
          </p>
        )}
        {canManage && endpoints.length < MAX_WEBHOOK_ENDPOINTS && (
          <form
            onSubmit={create}
            {...endpointErrors.formProps}
            className="space-y-3 border-t border-slate-100 pt-4"
            data-testid="add-webhook-endpoint"
          >
            <h3 className="text-sm font-semibold text-slate-900">Add an endpoint</h3>
            <Field id="endpoint-url" label="URL" error={endpointErrors.errorFor("url")}>
              <Input
                id="endpoint-url"
                name="url"
                type="url"
                placeholder="https://example.com/tumira-events"
                invalid={!!endpointErrors.errorFor("url")}
              />
            </Field>
            <fieldset>
              <legend className="text-sm font-medium text-slate-700">Events</legend>
              {EVENT_TYPES.map(([type, description]) => (
                <label key={type} className="mt-1 flex items-center gap-2 text-sm text-slate-700">
                  <input type="checkbox" name="events" value={type} defaultChecked={type === "message.status"} />
                  <code className="font-mono text-xs">{type}</code>
                  <span className="text-slate-500">{description}</span>
                </label>
              ))}
              {endpointErrors.errorFor("events") && <p className="mt-1 text-xs text-red-600">{endpointErrors.errorFor("events")}</p>}
            </fieldset>
            <Button type="submit" disabled={pending}>
              Add endpoint
            </Button>
          </form>
        )}

        <form onSubmit={saveThreshold} {...thresholdErrors.formProps} className="space-y-3 border-t border-slate-100 pt-4">
          <h3 className="text-sm font-semibold text-slate-900">Low-balance alert</h3>
          <Field
            id="low-balance-threshold"
            label="Threshold"
            hint="balance.low fires when the available balance falls below this. Empty: never."
            error={thresholdErrors.errorFor("threshold")}
          >
            <Input
              id="low-balance-threshold"
              name="threshold"
              defaultValue={threshold}
              className="max-w-xs"
              readOnly={!canManage}
              invalid={!!thresholdErrors.errorFor("threshold")}
            />
          </Field>
          {canManage && (
            <Button type="submit" variant="secondary" disabled={pending}>
              Save threshold
            </Button>
          )}
        </form>
      </CardBody>

      <Dialog
        open={secret !== null}
        onRequestClose={() => setSecret(null)}
        title={secret?.title ?? ""}
        testId="endpoint-secret-dialog"
        description="Copy the signing secret now: it is not shown again."
        footer={<Button onClick={() => setSecret(null)}>Done</Button>}
      >
        {secret && (
          <div className="flex gap-2">
            <Input id="endpoint-secret" readOnly value={secret.value} className="font-mono text-xs" data-testid="endpoint-secret" />
            <CopyButton text={secret.value} targetId="endpoint-secret" autoFocus />
          </div>
        )}
      </Dialog>

      <ConfirmDialog
        open={confirmRotate !== null}
        onClose={() => setConfirmRotate(null)}
        title="Rotate this endpoint's secret?"
        testId="rotate-endpoint-secret-dialog"
        description="A new secret signs every delivery from now on. The old one keeps signing too for 24 hours (each delivery then carries both signatures), so update your receiver within that time."
        confirmLabel="Rotate secret"
        variant="primary"
        onConfirm={() =>
          run(async () => {
            const result = await rotateEndpointAction({ id: confirmRotate! });
            setConfirmRotate(null);
            if (result.ok) setSecret({ title: "Secret rotated", value: result.data.secret });
            else notify("error", result.error);
          })
        }
        busy={pending}
      />

      <ConfirmDialog
        open={confirmDelete !== null}
        onClose={() => setConfirmDelete(null)}
        title="Delete this endpoint?"
        testId="delete-endpoint-dialog"
        description="Nothing more is delivered to it, deliveries still pending included."
        confirmLabel="Delete"
        onConfirm={() =>
          run(async () => {
            const result = await deleteEndpointAction({ id: confirmDelete! });
            setConfirmDelete(null);
            notifyOutcome(notify, result, "Endpoint deleted");
          })
        }
        busy={pending}
      />
    </Card>
  );
}
