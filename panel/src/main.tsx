import { render } from 'preact'
import { App } from './app.tsx'
import './styles.css'
import './charts.css'

render(<App />, document.getElementById('app')!)
