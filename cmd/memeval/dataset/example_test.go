package dataset_test

import (
	"bytes"
	"fmt"
	"log"
	"strings"

	"github.com/engram-go/engram/cmd/memeval/dataset"
)

func ExampleRead() {
	const data = `[{"sample_id": "conv-1",
	  "conversation": {"speaker_a": "Ana", "speaker_b": "Ben",
	    "session_1_date_time": "1:56 pm on 8 May, 2023",
	    "session_1": [{"speaker": "Ana", "dia_id": "D1:1", "text": "We adopted a beagle called Biscuit."}]},
	  "qa": [{"question": "What is the name of Ana's dog?", "answer": "Biscuit", "evidence": ["D1:1"], "category": 4}]}]`
	samples, err := dataset.Read(strings.NewReader(data))
	if err != nil {
		log.Fatal(err)
	}
	s := samples[0]
	q := s.QA[0]
	fmt.Println(q.Category, q.Question, q.Answer)
	for _, t := range s.Evidence(q) {
		fmt.Println(t.DiaID, t.Text)
	}
	// Output:
	// single-hop What is the name of Ana's dog? Biscuit
	// D1:1 We adopted a beagle called Biscuit.
}

func ExampleWrite() {
	s := dataset.Sample{ID: "tiny", SpeakerA: "Ana", SpeakerB: "Ben",
		Sessions: []dataset.Session{{Index: 1, DateTime: "9:00 am on 1 May, 2023",
			Turns: []dataset.Turn{{Speaker: "Ana", DiaID: "D1:1", Text: "Hi!"}}}}}
	var buf bytes.Buffer
	if err := dataset.Write(&buf, []dataset.Sample{s}); err != nil {
		log.Fatal(err)
	}
	fmt.Print(buf.String())
	// Output:
	// [
	//   {
	//     "sample_id": "tiny",
	//     "conversation": {
	//       "speaker_a": "Ana",
	//       "speaker_b": "Ben",
	//       "session_1_date_time": "9:00 am on 1 May, 2023",
	//       "session_1": [
	//         {
	//           "speaker": "Ana",
	//           "dia_id": "D1:1",
	//           "text": "Hi!"
	//         }
	//       ]
	//     },
	//     "qa": []
	//   }
	// ]
}

func ExampleGenerate() {
	cfg := dataset.DefaultGenConfig()
	cfg.Samples = 1
	samples, err := dataset.Generate(cfg)
	if err != nil {
		log.Fatal(err)
	}
	s := samples[0]
	turns, noise := s.Turns(), 0
	for _, t := range turns {
		if t.Noise {
			noise++
		}
	}
	fmt.Printf("%d sessions, %.2f noise, %d questions\n", len(s.Sessions), float64(noise)/float64(len(turns)), len(s.QA))
	// Output:
	// 20 sessions, 0.50 noise, 64 questions
}

func ExampleSample_Turns() {
	s := dataset.Sample{Sessions: []dataset.Session{
		{Index: 1, DateTime: "d1", Turns: []dataset.Turn{{DiaID: "D1:1"}, {DiaID: "D1:2"}}},
		{Index: 2, DateTime: "d2", Turns: []dataset.Turn{{DiaID: "D2:1"}}},
	}}
	for _, t := range s.Turns() {
		fmt.Print(t.DiaID, " ")
	}
	fmt.Println()
	// Output: D1:1 D1:2 D2:1
}

func ExampleCategory() {
	for c := dataset.MultiHop; c <= dataset.Adversarial; c++ {
		fmt.Println(int(c), c)
	}
	// Output:
	// 1 multi-hop
	// 2 temporal
	// 3 open-domain
	// 4 single-hop
	// 5 adversarial
}
