/**
 * The page line names the page as the model needs it (DECISIONS, issue 56 item 5): the address without the
 * parameters that only track a visit, and the title without the site's name where the address says it. What
 * tells one page from another stays: every other parameter, and the title's own words.
 */
import { describe, expect, it } from 'vitest';
import type { Capture } from '../src/snapshot/capture.js';
import { formatSnapshot } from '../src/snapshot/format.js';

function pageLine(url: string, title: string): string {
  const capture: Capture = {
    url,
    title,
    tree: [{ role: 'button', name: 'Go', ref: 'e1', box: { x: 10, y: 10, width: 100, height: 20 } }],
    metrics: { scrollX: 0, scrollY: 0, scrollWidth: 1280, scrollHeight: 720, viewportWidth: 1280, viewportHeight: 720 },
    fields: new Map(),
    documentId: 1,
  };
  return formatSnapshot(capture, { scope: 'viewport', maxTokens: 2000 }).text.split('\n', 1)[0]!;
}

describe('the address on the page line', () => {
  it('leaves out utm_ parameters and ad-click ids, and keeps every other parameter in its order', () => {
    expect(pageLine('https://shop.example/search?utm_source=news&q=kettle&fbclid=IwAR0&page=2&utm_campaign=fall#reviews', 'Search')).toBe(
      'page "Search" https://shop.example/search?q=kettle&page=2#reviews',
    );
    expect(pageLine('https://shop.example/item/9?gclid=Cj0&mc_eid=ab12&msclkid=77', 'Kettle')).toBe('page "Kettle" https://shop.example/item/9');
  });

  it('keeps parameters that only look like trackers, and addresses with none', () => {
    expect(pageLine('https://shop.example/list?utmost=1&source=mail&ref=home', 'List')).toBe('page "List" https://shop.example/list?utmost=1&source=mail&ref=home');
    expect(pageLine('http://127.0.0.1:8080/form.html', 'Form')).toBe('page "Form" http://127.0.0.1:8080/form.html');
    // A fragment is the page's own, whatever it holds.
    expect(pageLine('https://app.example/#/inbox?utm_source=x', 'Inbox')).toBe('page "Inbox" https://app.example/#/inbox?utm_source=x');
  });
});

describe('the title on the page line', () => {
  it('leaves out a last part that names the site the address already names', () => {
    expect(pageLine('https://en.wikipedia.org/wiki/Mozilla', 'Mozilla - Wikipedia')).toBe('page "Mozilla" https://en.wikipedia.org/wiki/Mozilla');
    expect(pageLine('https://www.washingtonpost.com/world/x', 'Attack stokes instability fears in North Africa - The Washington Post')).toBe(
      'page "Attack stokes instability fears in North Africa" https://www.washingtonpost.com/world/x',
    );
    expect(pageLine('https://www.nytimes.com/2017/01/13/world/africa/sudan-sanctions.html', 'United States to Lift Sudan Sanctions - The New York Times')).toBe(
      'page "United States to Lift Sudan Sanctions" https://www.nytimes.com/2017/01/13/world/africa/sudan-sanctions.html',
    );
    expect(pageLine('https://zpravy.aktualne.cz/sport/x', 'West Ham hrozí gigantům - Aktuálně.cz')).toBe('page "West Ham hrozí gigantům" https://zpravy.aktualne.cz/sport/x');
    // Only the last part goes: the sections before it tell pages of the site apart.
    expect(pageLine('https://www.theguardian.com/environment/x', 'Whale strandings | Eleanor Ainge Roy | Environment | The Guardian')).toBe(
      'page "Whale strandings | Eleanor Ainge Roy | Environment" https://www.theguardian.com/environment/x',
    );
  });

  it('keeps the whole title where the address does not name the site, or the title is only the site', () => {
    expect(pageLine('http://127.0.0.1:8080/corpus/wikipedia.html', 'Mozilla - Wikipedia')).toBe('page "Mozilla - Wikipedia" http://127.0.0.1:8080/corpus/wikipedia.html');
    expect(pageLine('https://blog.nightly.mozilla.org/2021/01/x', 'These Weeks in Firefox: Issue 85 – Firefox Nightly News')).toBe(
      'page "These Weeks in Firefox: Issue 85 – Firefox Nightly News" https://blog.nightly.mozilla.org/2021/01/x',
    );
    expect(pageLine('https://www.wikipedia.org/', 'Wikipedia')).toBe('page "Wikipedia" https://www.wikipedia.org/');
    // A name with a separator in it ("Build - Test") keeps its last word when the host is another.
    expect(pageLine('https://ci.example.com/runs/5', 'Run 5 - Build - Test')).toBe('page "Run 5 - Build - Test" https://ci.example.com/runs/5');
  });
});
