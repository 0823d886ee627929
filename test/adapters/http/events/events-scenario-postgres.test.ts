import test from 'ava';
import { postgresSchemaUrl } from '../../../support/databases.js';
import { scriptedScenario } from './events-scenario.js';

test('postgres: a scripted sequence delivers every event to every subscribed endpoint, signed, and nothing to another wallet', async (t) => {
  const { url } = await postgresSchemaUrl(t, 'events_scenario');
  await scriptedScenario(t, url);
});
