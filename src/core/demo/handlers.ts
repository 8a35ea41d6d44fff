import type { HandlerGroup } from '../handlerGroups';
import type { DemoService } from './service';

/**
 * Demo mode's examples: "Remove examples" deletes every example search and watch and says how many went; the
 * first-run panel reads when the first example alert is expected and is dismissed for good.
 */
export function demoHandlers(
  demo: DemoService,
): HandlerGroup<'examples.remove' | 'examples.intro' | 'examples.dismissIntro'> {
  return {
    'examples.remove': () => demo.removeExamples(),
    'examples.intro': () => demo.examplesIntro(),
    'examples.dismissIntro': () => demo.dismissIntro(),
  };
}
