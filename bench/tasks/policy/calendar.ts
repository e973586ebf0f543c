/** Policy for month calendars: go to the month, then click a day, or an event on the calendar. */
import { clickNamed, type Policy } from './common.js';
import { dayControl, goToMonth } from './datepicker.js';

/** "Click March 12, 2024 in the calendar." or "Go to March 2024 and click the event "Team lunch" in the calendar." */
export const calendar: Policy = async (agent, url) => {
  await agent.open(url);
  const [, month, day, year, eventMonth, eventYear, event] = await agent.instruction(
    /Click (\w+) (\d{1,2}), (\d{4}) in the calendar\.|Go to (\w+) (\d{4}) and click the event "(.+?)" in the calendar\./,
  );
  if (event) {
    await goToMonth(agent, eventMonth!, eventYear!);
    await clickNamed(agent, event, { fresh: true });
    return;
  }
  await goToMonth(agent, month!, year!);
  await agent.click(await dayControl(agent, { month: month!, day: day!, year: year! }));
};
