// @ts-check
// How players are named on every screen: the table, replays, statistics (and `corazones verify`
// follows the same rule). Records keep a bot as "<level> bot" and an unnamed seat as "seat N"
// counted from 0; people see "Bot N" and "Seat N" counted from 1, in their language.
import { t } from "./i18n.js";

/**
 * The name shown for seat `seat` whose stored name is `raw`.
 * @param {string | null | undefined} raw
 * @param {number} seat
 */
export function playerName(raw, seat) {
  if (!raw || /^seat \d+$/.test(raw)) return t("Seat {n}", { n: seat + 1 });
  if (/^[a-z_]+ bot$/.test(raw)) return t("Bot {n}", { n: seat + 1 });
  return raw;
}
