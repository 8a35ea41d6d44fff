import { PlaceholderView } from './PlaceholderView';

/** Call any endpoint of the service and see the JSON and what it cost. */
export function ConsoleView() {
  return <PlaceholderView title="Console" text="Call any endpoint of the service and see the JSON and what it cost." />;
}
