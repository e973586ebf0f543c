/**
 * Multi-step tasks: log in, then act on later pages (real navigations, the instruction only on the first
 * page); and an in-page wizard whose steps replace each other.
 */
import { COLORS, FIRST_NAMES, WORDS, capitalize, type Rng } from '../random.js';
import type { TaskDef } from '../types.js';
import { esc, js, shell } from './shell.js';

interface LoginSpec {
  user: string;
  password: string;
  settings: string[];
  /** Settings on when the settings page opens. */
  on: string[];
  target: string;
}

const SETTINGS = ['Email alerts', 'Dark mode', 'Weekly digest', 'Two-step login', 'Sound effects', 'Auto-save', 'Beta features', 'Public profile'];

const login: TaskDef<LoginSpec> = {
  id: 'login-then-settings',
  category: 'multi-step',
  policy: 'loginSettings',
  summary: 'log in, follow a link to Settings on the next page, turn one switch on and save (three pages)',
  generate: (rng: Rng) => {
    const settings = rng.sample(SETTINGS, 6);
    const target = rng.pick(settings);
    return {
      user: `${rng.pick(FIRST_NAMES).toLowerCase()}${rng.int(1, 99)}`,
      password: `${capitalize(rng.pick(WORDS))}!${rng.int(10, 99)}`,
      settings,
      on: rng.sample(settings.filter((s) => s !== target), 2),
      target,
    };
  },
  render: (spec, { episode, page, url }) => {
    if (page === 'home') {
      return shell({
        title: 'Dashboard',
        episode,
        body: `<nav><a href="#">Dashboard</a> · <a href="#">Messages</a> · <a href="${esc(url('settings'))}">Settings</a> · <a href="#">Log out</a></nav>
<h1>Welcome back, ${esc(spec.user)}</h1><p>You have 3 new messages.</p>`,
      });
    }
    if (page === 'settings') {
      return shell({
        title: 'Settings',
        episode,
        body: `<h1>Settings</h1>${spec.settings.map((s, i) => `<label><input type="checkbox" role="switch" id="s${i}" value="${esc(s)}"${spec.on.includes(s) ? ' checked' : ''}> ${esc(s)}</label>`).join('\n')}
<div><button id="save">Save</button></div>`,
        script: `const wanted = ${js([...spec.on, spec.target].sort())};
$('#save').addEventListener('click', () => {
  const on = $$('input[role=switch]').filter((s) => s.checked).map((s) => s.value).sort();
  report(JSON.stringify(on) === JSON.stringify(wanted), 'on: ' + on.join(', '));
});`,
      });
    }
    return shell({
      title: 'Sign in',
      episode,
      instruction: `Log in as "${spec.user}" with the password "${spec.password}", then open Settings, turn on "${spec.target}" and press Save.`,
      body: `<h1>Sign in</h1><label for="u">Username</label><input id="u" autocomplete="off"><label for="p">Password</label><input id="p" type="password">
<div><button id="login">Log in</button></div><p id="err" role="alert"></p>`,
      script: `$('#login').addEventListener('click', () => {
  if ($('#u').value.trim() === ${js(spec.user)} && $('#p').value === ${js(spec.password)}) location.href = ${js(url('home'))};
  else $('#err').textContent = 'Wrong username or password.';
});`,
    });
  },
};

interface WizardSpec {
  name: string;
  plan: string;
  region: string;
}

const PLANS = ['Free', 'Team', 'Business', 'Enterprise'];
const REGIONS = ['Frankfurt', 'Dublin', 'Oregon', 'Singapore', 'Sydney', 'Montreal'];

const wizard: TaskDef<WizardSpec> = {
  id: 'wizard',
  category: 'multi-step',
  policy: 'wizard',
  summary: 'a three-step in-page wizard (name, plan radio, region select and terms checkbox) with Next buttons',
  generate: (rng) => ({ name: `${rng.pick(COLORS)} ${capitalize(rng.pick(WORDS))}`, plan: rng.pick(PLANS), region: rng.pick(REGIONS) }),
  render: (spec, { episode }) =>
    shell({
      title: 'New project',
      episode,
      instruction: `Create a project named "${spec.name}" on the ${spec.plan} plan in the ${spec.region} region, accept the terms and press Finish.`,
      body: `<section class="step" id="s1"><h2>Step 1 of 3</h2><label for="name">Project name</label><input id="name" autocomplete="off"><div><button class="next">Next</button></div></section>
<section class="step" id="s2" hidden><h2>Step 2 of 3</h2><fieldset><legend>Plan</legend>${PLANS.map((p) => `<label><input type="radio" name="plan" value="${p}"> ${p}</label>`).join('')}</fieldset><div><button class="next">Next</button></div></section>
<section class="step" id="s3" hidden><h2>Step 3 of 3</h2><label>Region <select id="region">${REGIONS.map((r) => `<option>${r}</option>`).join('')}</select></label>
<label><input type="checkbox" id="terms"> I accept the terms</label><div><button id="finish">Finish</button></div></section>`,
      script: `$$('.next').forEach((b, i) => b.addEventListener('click', () => { $('#s' + (i + 1)).hidden = true; $('#s' + (i + 2)).hidden = false; }));
$('#finish').addEventListener('click', () => {
  const plan = $('input[name=plan]:checked');
  const got = { name: $('#name').value.trim(), plan: plan ? plan.value : '', region: $('#region').value, terms: $('#terms').checked };
  const wanted = ${js({ ...spec, terms: true })};
  const wrong = Object.keys(wanted).filter((k) => got[k] !== wanted[k]);
  report(!wrong.length, wrong.length ? 'wrong ' + wrong.join(', ') : 'created');
});`,
    }),
};

export const MULTISTEP_TASKS: TaskDef[] = [login, wizard];
