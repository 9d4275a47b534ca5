// SMPP command_status values Tumira acts on, and how a submit_sm_resp status is read.
import smpp from "smpp";

export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RMSGQFUL: 0x14,
  ESME_RTHROTTLED: 0x58,
  ESME_RX_T_APPN: 0x64,
} as const;

/** Worth another try later: the carrier is busy or broken, not refusing this message. */
const TEMPORARY: ReadonlySet<number> = new Set([STATUS.ESME_RINVBNDSTS, STATUS.ESME_RSYSERR, STATUS.ESME_RMSGQFUL, STATUS.ESME_RTHROTTLED, STATUS.ESME_RX_T_APPN]);

const nameOfStatus = new Map(Object.entries(smpp.errors).map(([name, value]) => [value, name]));

export function isTemporaryStatus(status: number): boolean {
  return TEMPORARY.has(status);
}

/** "ESME_RTHROTTLED", or "0x000000ff" for a vendor status the package does not name. */
export function statusName(status: number): string {
  return nameOfStatus.get(status) ?? `0x${status.toString(16).padStart(8, "0")}`;
}
