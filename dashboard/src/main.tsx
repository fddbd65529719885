/** Entry point: styles, routing, and the app mounted into #app. */
import 'uplot/dist/uPlot.min.css';
import './styles.css';
import { render } from 'preact';
import { App } from './app';
import { startRouter } from './router';

const root = document.getElementById('app');
if (!root) throw new Error('index.html has no #app element');
startRouter();
render(<App />, root);
