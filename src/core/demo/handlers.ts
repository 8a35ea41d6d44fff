import type { HandlerGroup } from '../handlerGroups';
import type { DemoService } from './service';

/** Demo mode's examples: "Remove examples" deletes every example search and watch and says how many went. */
export function demoHandlers(demo: DemoService): HandlerGroup<'examples.remove'> {
  return {
    'examples.remove': () => demo.removeExamples(),
  };
}
