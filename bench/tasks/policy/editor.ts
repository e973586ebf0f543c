/** Policy for rich-text editors: find the editor by its label, type into it, save. */
import { clickNamed, type Policy } from './common.js';
import { sameName, View, type Item } from './view.js';

/** "Type "Anchor near the kettle by the pocket." into the Notes editor, then press Save." */
export const editorType: Policy = async (agent, url) => {
  await agent.open(url);
  const [, text, name, save] = await agent.instruction(/Type "(.+?)" into the (.+?) editor, then press ([^.]+)\./);
  // An editor is a text box named by its label, or the one text box on the page (libraries name it after
  // themselves, "Rich Text Area"), or, where a system shows no text box, the empty paragraph an empty editor holds.
  const isEditor = (item: Item, view: View) =>
    (item.role === 'textbox' && (sameName(item.name, name!) || view.filter((other) => other.role === 'textbox').length === 1)) ||
    (item.role === 'paragraph' && !View.label(item));
  const editor = await agent.control({ where: isEditor }, `the ${name} editor`);
  await agent.type(editor, text!);
  await clickNamed(agent, save!, { fresh: true });
};
