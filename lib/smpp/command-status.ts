// SMPP command_status values Tumira acts on, and how a submit_sm_resp status is read.

export const STATUS = {
  ESME_ROK: 0x00,
  ESME_RINVCMDID: 0x03,
  ESME_RINVBNDSTS: 0x04,
  ESME_RALYBND: 0x05,
  ESME_RSYSERR: 0x08,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVDSTADR: 0x0b,
  ESME_RBINDFAIL: 0x0d,
  ESME_RINVPASWD: 0x0e,
  ESME_RINVSYSID: 0x0f,
  ESME_RMSGQFUL: 0x14,
  ESME_RTHROTTLED: 0x58,
  ESME_RX_T_APPN: 0x64,
} as const;

/** Worth another try later: the carrier is busy or broken, not refusing this message. */
const TEMPORARY: ReadonlySet<number> = new Set([
  STATUS.ESME_RINVBNDSTS,
  STATUS.ESME_RSYSERR,
  STATUS.ESME_RMSGQFUL,
  STATUS.ESME_RTHROTTLED,
  STATUS.ESME_RX_T_APPN,
]);

/** Every command_status SMPP 3.4 names (section 5.1.3), for the timeline and the logs. */
const STATUS_NAMES: Record<string, number> = {
  ...STATUS,
  ESME_RINVMSGLEN: 0x01,
  ESME_RINVCMDLEN: 0x02,
  ESME_RINVPRTFLG: 0x06,
  ESME_RINVREGDLVFLG: 0x07,
  ESME_RINVSRCADR: 0x0a,
  ESME_RINVMSGID: 0x0c,
  ESME_RCANCELFAIL: 0x11,
  ESME_RREPLACEFAIL: 0x13,
  ESME_RINVSERTYP: 0x15,
  ESME_RINVNUMDESTS: 0x33,
  ESME_RINVDLNAME: 0x34,
  ESME_RINVDESTFLAG: 0x40,
  ESME_RINVSUBREP: 0x42,
  ESME_RINVESMCLASS: 0x43,
  ESME_RCNTSUBDL: 0x44,
  ESME_RSUBMITFAIL: 0x45,
  ESME_RINVSRCTON: 0x48,
  ESME_RINVSRCNPI: 0x49,
  ESME_RINVDSTTON: 0x50,
  ESME_RINVDSTNPI: 0x51,
  ESME_RINVSYSTYP: 0x53,
  ESME_RINVREPFLAG: 0x54,
  ESME_RINVNUMMSGS: 0x55,
  ESME_RINVSCHED: 0x61,
  ESME_RINVEXPIRY: 0x62,
  ESME_RINVDFTMSGID: 0x63,
  ESME_RX_P_APPN: 0x65,
  ESME_RX_R_APPN: 0x66,
  ESME_RQUERYFAIL: 0x67,
  ESME_RINVOPTPARSTREAM: 0xc0,
  ESME_ROPTPARNOTALLWD: 0xc1,
  ESME_RINVPARLEN: 0xc2,
  ESME_RMISSINGOPTPARAM: 0xc3,
  ESME_RINVOPTPARAMVAL: 0xc4,
  ESME_RDELIVERYFAILURE: 0xfe,
  ESME_RUNKNOWNERR: 0xff,
};

const nameOfStatus = new Map(Object.entries(STATUS_NAMES).map(([name, value]) => [value, name]));

export function isTemporaryStatus(status: number): boolean {
  return TEMPORARY.has(status);
}

/** "ESME_RTHROTTLED", or "0x00000400" for a vendor status the specification does not name. */
export function statusName(status: number): string {
  return nameOfStatus.get(status) ?? `0x${status.toString(16).padStart(8, "0")}`;
}
