/** The sets whose members differ most between regular expression engines, and the flags that change them. */
export const SET_ATOMS = [
  '.',
  '\\s',
  '\\S',
  '\\w',
  '\\W',
  '\\d',
  '\\D',
  '[^a]',
  'k',
  's',
  '[a-z]',
  '[^a-z]',
  '[^\\W_]',
];
export const SET_FLAGS = ['', 'i', 'u', 's', 'm'];
