import type { FormPair } from '../../server/src/sender/encoding';

/** Pairs in the shapes of the docs (convention 2 and the pattern names of the catalog). */
export const SHAPES: FormPair[] = [
  { name: 'module[name]', value: 'Week 1: Intro & Setup' },
  { name: 'include[]', value: 'items' },
  { name: 'include[]', value: 'content_details' },
  { name: 'module_item[completion_requirement][type]', value: 'min_score' },
  { name: 'module_item[completion_requirement][min_score]', value: '7.5' },
  { name: 'appointment_group[new_appointments][0][]', value: '2026-09-14T08:00:00+02:00' },
  { name: 'appointment_group[new_appointments][0][]', value: '2026-09-14T09:00:00+02:00' },
  { name: 'appointment_group[new_appointments][1][]', value: '2026-09-15T08:00:00Z' },
  { name: 'custom_fields[my_field]', value: 'a=b&c=d' },
  { name: 'permissions[manage_files][enabled]', value: 'true' },
  { name: 'notification_preferences[new_announcement][frequency]', value: 'daily' },
  { name: 'subscription[EventTypes][]', value: 'submission_created' },
  { name: 'subscription[TransportMetadata][Url]', value: 'https://hooks.example.edu/in?x=1&y=2#frag' },
  { name: 'start_date', value: '2026-02-28' },
  { name: 'search', value: 'Über café 日本 😀' },
  { name: 'body', value: '1 + 1 = 2 100% "quoted" \'single\' <tag> ~tilde_ok-.' },
  { name: 'empty', value: '' },
  { name: 'path', value: '/a/b?c;d,e:f@g$h!i*j(k)l[m]n{o}p|q\\r^s`t' },
  { name: 'lines', value: 'one\ntwo\r\nthree\ttab' },
];
